import { existsSync, readFileSync } from 'node:fs';
import { Browser, BrowserContext, chromium, Page, Request } from 'playwright-core';
import { PageFile } from './page-server';
import { packageFile, SentEvent } from './sent-events';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless Debian Chromium; a missing browser fails the tests (never skips them) with the fix. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: the browser SDK tests need it. Install it with ` +
        '`apt-get install -y chromium` (CI installs it), or point CHROMIUM_PATH at a Chromium binary.',
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** What the page saw: every SDK callback, every payload track() returned, every gateway answer as the page could read it. */
export interface PageRecord {
  callbacks: { event: string; response: unknown }[];
  /** The payload each track() call put on its way to the gateway (false when it did not send or queue). */
  sent: (SentEvent | false)[];
  /** Answers to the SDK's XHRs as script can read them: status 0 when CORS withholds the answer. */
  responses: { method: string; url: string; status: number; statusText: string; body: string }[];
  inFlight: number;
  /** What the SDK reported through its error_reporter option. */
  errors: string[];
}

interface PageGlobals {
  sdkPage: {
    record: PageRecord;
    init(token: string, config: Record<string, unknown>): void;
    track(event: string, properties: Record<string, unknown>, options?: Record<string, unknown>): void;
    identify(id: string): void;
    register(properties: Record<string, unknown>): void;
  };
}

/**
 * Runs in the page before the SDK loads: it only observes (callbacks, returned payloads, XHR
 * answers), so the SDK runs unchanged.
 */
const PAGE_SCRIPT = `(function () {
  var record = { callbacks: [], sent: [], responses: [], inFlight: 0, errors: [] };
  var open = XMLHttpRequest.prototype.open;
  var send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url) {
    this.sdkRequest = { method: method, url: String(url) };
    return open.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function () {
    var xhr = this;
    record.inFlight++;
    xhr.addEventListener('loadend', function () {
      record.inFlight--;
      record.responses.push({ method: xhr.sdkRequest.method, url: xhr.sdkRequest.url, status: xhr.status, statusText: xhr.statusText, body: xhr.responseText });
    });
    return send.apply(this, arguments);
  };
  window.sdkPage = {
    record: record,
    init: function (token, config) {
      config.error_reporter = function (message) { record.errors.push(message instanceof Error ? message.message : String(message)); };
      mixpanel.init(token, config);
    },
    track: function (event, properties, options) {
      var sent = mixpanel.track(event, properties, options || {}, function (response) {
        record.callbacks.push({ event: event, response: response });
      });
      record.sent.push(sent ? JSON.parse(JSON.stringify(sent)) : false);
    },
    identify: function (id) { mixpanel.identify(id); },
    register: function (properties) { mixpanel.register(properties); }
  };
})();`;

const html = (title: string, scripts: string[]) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title><link rel="icon" href="data:,">` +
  `${scripts.map((src) => `<script src="${src}"></script>`).join('')}</head><body><h1>${title}</h1></body></html>`;

/** The site embedding the SDK: `/` loads the SDK's UMD bundle (global `mixpanel`); `/elsewhere` is a page without it. */
export function sdkSiteFiles(): Record<string, PageFile> {
  const js = (body: string | Buffer): PageFile => ({ contentType: 'text/javascript; charset=utf-8', body });
  return {
    '/': { contentType: 'text/html; charset=utf-8', body: html('Shop', ['/sdk-page.js', '/mixpanel.umd.js']) },
    '/elsewhere': { contentType: 'text/html; charset=utf-8', body: html('Elsewhere', []) },
    '/sdk-page.js': js(PAGE_SCRIPT),
    '/mixpanel.umd.js': js(readFileSync(packageFile('mixpanel-browser', 'dist/mixpanel.umd.js'))),
  };
}

export interface WireRequest {
  method: string;
  path: string;
  resourceType: string;
  contentType: string | null;
}

/** One tab of the site, driving the SDK through the page script and noting what reached the gateway. */
export class SdkPage {
  private readonly requests: Request[] = [];

  private constructor(
    readonly page: Page,
    gatewayOrigin: string,
  ) {
    page.on('request', (request) => {
      if (request.url().startsWith(`${gatewayOrigin}/`)) this.requests.push(request);
    });
  }

  static async open(context: BrowserContext, url: string, gatewayOrigin: string): Promise<SdkPage> {
    const sdkPage = new SdkPage(await context.newPage(), gatewayOrigin);
    await sdkPage.page.goto(url);
    return sdkPage;
  }

  init(token: string, config: Record<string, unknown>): Promise<void> {
    return this.page.evaluate(([t, c]) => (globalThis as unknown as PageGlobals).sdkPage.init(t, c), [
      token,
      config,
    ] as const);
  }

  track(event: string, properties: Record<string, unknown>, options?: Record<string, unknown>): Promise<void> {
    return this.page.evaluate(([e, p, o]) => (globalThis as unknown as PageGlobals).sdkPage.track(e, p, o), [
      event,
      properties,
      options,
    ] as const);
  }

  identify(id: string): Promise<void> {
    return this.page.evaluate((i) => (globalThis as unknown as PageGlobals).sdkPage.identify(i), id);
  }

  register(properties: Record<string, unknown>): Promise<void> {
    return this.page.evaluate((p) => (globalThis as unknown as PageGlobals).sdkPage.register(p), properties);
  }

  record(): Promise<PageRecord> {
    return this.page.evaluate(() => (globalThis as unknown as PageGlobals).sdkPage.record);
  }

  /** Requests the browser made to the gateway (those still visible to the page: not beacons sent while leaving it). */
  async wire(): Promise<WireRequest[]> {
    return Promise.all(
      this.requests.map(async (request) => ({
        method: request.method(),
        path: new URL(request.url()).pathname,
        resourceType: request.resourceType(),
        contentType: await request.headerValue('content-type'),
      })),
    );
  }
}
