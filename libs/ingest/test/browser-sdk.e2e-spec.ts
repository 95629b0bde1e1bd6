import { eventually } from '@analytics/testing';
import { Browser, BrowserContext } from 'playwright-core';
import { IngestHarness, startIngestHarness } from './ingest-harness';
import { launchChromium, PageRecord, SdkPage, sdkSiteFiles } from './sdk/browser-sdk-page';
import { PageServer, startPageServer } from './sdk/page-server';
import { ASTRAL_TEXT, asStored, everyJsonType, installedVersion, SentEvent, sortedByEvent } from './sdk/sent-events';
import { waitForStoredEvents, whereProperty } from './sdk/stored-events';

const SDK_VERSION = installedVersion('mixpanel-browser');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The SDK's $insert_id: two random base-36 runs of up to 8 characters. */
const SDK_INSERT_ID = /^[0-9a-z]{1,16}$/;

jest.setTimeout(90_000);

/** The arguments of one `mixpanel.track()` call. */
type Track = [event: string, properties: Record<string, unknown>, options?: Record<string, unknown>];

describe('mixpanel-browser (the official web SDK) in headless Chromium against the gateway', () => {
  let h: IngestHarness;
  let site: PageServer;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    browser = await launchChromium();
    h = await startIngestHarness();
    site = await startPageServer(sdkSiteFiles());
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await h?.close();
  });
  // A fresh profile per test: the SDK keeps its identity (cookie) and queue (localStorage) per origin.
  beforeEach(async () => {
    context = await browser.newContext();
  });
  afterEach(() => context?.close());

  const gateway = () => h.app.baseUrl;
  const openSite = () => SdkPage.open(context, `${site.origin}/`, gateway());
  const settled = (page: SdkPage, callbacks: number) =>
    eventually(async () => {
      const record = await page.record();
      if (record.callbacks.length < callbacks || record.inFlight > 0)
        throw new Error(`page not settled: ${JSON.stringify(record)}`);
      return record;
    });

  /** The properties the SDK adds to every event that the gateway keeps as properties (by shape where they vary). */
  const sdkProperties = (deviceId: string) => ({
    $os: 'Linux',
    $browser: 'Chrome',
    $browser_version: expect.any(Number),
    $current_url: `${site.origin}/`,
    $screen_height: expect.any(Number),
    $screen_width: expect.any(Number),
    mp_lib: 'web',
    $lib_version: SDK_VERSION,
    $device_id: deviceId,
    $initial_referrer: '$direct',
    $initial_referring_domain: '$direct',
  });
  /** …and those the gateway turns into columns (time in float seconds, $insert_id) or drops (token). */
  const sdkEnvelope = () => ({
    time: expect.any(Number),
    $insert_id: expect.stringMatching(SDK_INSERT_ID),
    token: h.project.token,
  });

  /** The SDK asks for `ip=1`: the gateway records the sender's address. */
  const gatewayAdds = { $ip: '127.0.0.1' };
  /** The batch queue stamps each event with the SDK version that sends it. */
  const viaQueue = (event: SentEvent): SentEvent => ({
    ...event,
    properties: { ...event.properties, mp_sent_by_lib_version: SDK_VERSION },
  });

  /** The device id the SDK made up for this browser, checked to be the same on every payload. */
  function deviceIdOf(sent: PageRecord['sent']): string {
    const ids = new Set(sent.map((payload) => (payload as SentEvent).properties.$device_id));
    expect(ids.size).toBe(1);
    const [id] = ids;
    expect(id).toMatch(UUID);
    return id as string;
  }

  /**
   * identify() also sends the profile's `$set_once` of the initial referrer to /engage/: profiles are
   * not served yet and out of scope here, so those answers are left out of the checks.
   */
  const isProfileUpdate = (url: string) => new URL(url).pathname === '/engage/';

  /** Every /track/ answer was readable by the page (200: the credentialed CORS answer was accepted) and as expected. */
  function expectTrackAnswers(record: PageRecord, body: (text: string) => void): void {
    const answers = record.responses.filter((r) => !isProfileUpdate(r.url));
    expect(answers.length).toBeGreaterThan(0);
    for (const answer of answers) {
      expect({ method: answer.method, url: answer.url.split('?')[0], status: answer.status }).toEqual({
        method: 'POST',
        url: `${gateway()}/track/`,
        status: 200,
      });
      body(answer.body);
    }
    // The SDK reported no error but those of the profile updates.
    const profileFailures = record.responses.filter((r) => isProfileUpdate(r.url) && r.status !== 200);
    expect(record.errors).toEqual(profileFailures.map((r) => `Bad HTTP status: ${r.status} ${r.statusText}`));
  }

  /** On the wire: only form POSTs by XHR, to /track/ (and /engage/, see above). */
  async function expectFormPosts(page: SdkPage, trackRequests: number): Promise<void> {
    const wire = await page.wire();
    for (const request of wire) {
      expect(request).toEqual({
        method: 'POST',
        path: expect.stringMatching(/^\/(track|engage)\/$/),
        resourceType: 'xhr',
        contentType: 'application/x-www-form-urlencoded',
      });
    }
    expect(wire.filter((r) => r.path === '/track/').length).toBeGreaterThanOrEqual(trackRequests);
  }

  it('batched (the default): every JSON type, super properties and identify() are stored exactly as tracked', async () => {
    const page = await openSite();
    await page.init(h.project.token, { api_host: gateway(), debug: true, batch_flush_interval_ms: 200 });
    const superProperties = { test_case: 'batched', plan: 'pro', 'café ☕': ['ü', 2] };
    await page.register(superProperties);
    const tracked: Track[] = [
      ['Viewed Product', everyJsonType(1)],
      [
        'Searched',
        { query: 'chaussures rouges ✓', filters: { size: [38, 39], in_stock: true, max_price: 99.5 }, page: null },
      ],
    ];
    const afterIdentify: Track[] = [
      ['Purchased', everyJsonType(2)],
      ['Sent at once', everyJsonType(3), { send_immediately: true }],
    ];
    const before = Date.now();
    for (const args of tracked) await page.track(...args);
    await page.identify('user-42');
    for (const args of afterIdentify) await page.track(...args);

    const stored = await waitForStoredEvents(h, whereProperty('test_case', 'batched'), 5);
    const after = Date.now();
    const record = await settled(page, 4);

    // Queued events report 1 once queued; the immediate one reports the gateway's `1`.
    expect(record.callbacks).toEqual([...tracked, ...afterIdentify].map(([event]) => ({ event, response: 1 })));
    // Batch flushes ask for verbose answers; the immediate send does not.
    expectTrackAnswers(record, (body) => expect(['{"error":null,"status":1}', '1']).toContain(body));
    expect(record.responses.map((r) => r.body)).toContain('1');
    await expectFormPosts(page, record.responses.filter((r) => !isProfileUpdate(r.url)).length);

    // What the SDK sent: our properties as given, its own by shape; anonymous first, then the user.
    const deviceId = deviceIdOf(record.sent);
    const anonymous = `$device:${deviceId}`;
    const sent = record.sent as SentEvent[];
    expect(sent).toEqual([
      ...tracked.map(([event, properties]) => ({
        event,
        properties: {
          ...properties,
          ...superProperties,
          ...sdkProperties(deviceId),
          ...sdkEnvelope(),
          distinct_id: anonymous,
        },
      })),
      ...afterIdentify.map(([event, properties]) => ({
        event,
        properties: {
          ...properties,
          ...superProperties,
          ...sdkProperties(deviceId),
          ...sdkEnvelope(),
          distinct_id: 'user-42',
          $user_id: 'user-42',
        },
      })),
    ]);

    // What was stored: exactly what was sent (stamped by the queue unless sent at once), and $identify.
    const identify = {
      event: '$identify',
      distinct_id: 'user-42',
      time_ms: expect.any(Number),
      insert_id: expect.stringMatching(SDK_INSERT_ID),
      properties: {
        ...superProperties,
        ...sdkProperties(deviceId),
        $anon_distinct_id: anonymous,
        $user_id: 'user-42',
        mp_sent_by_lib_version: SDK_VERSION,
        ...gatewayAdds,
      },
    };
    const flushed = sent.map((e) => (e.event === 'Sent at once' ? e : viaQueue(e)));
    expect(sortedByEvent(stored)).toEqual(sortedByEvent([...flushed.map((e) => asStored(e, gatewayAdds)), identify]));
    for (const event of stored) {
      expect(event.time_ms).toBeGreaterThanOrEqual(before - 1);
      expect(event.time_ms).toBeLessThanOrEqual(after);
    }
  });

  it('batching off with verbose answers: each track() is one request whose callback gets {status: 1}', async () => {
    const page = await openSite();
    await page.init(h.project.token, { api_host: gateway(), debug: true, batch_requests: false, verbose: true });
    await page.register({ test_case: 'unbatched' });
    const tracked: Track[] = [
      ['Opened', everyJsonType(1)],
      ['Scrolled', { depth: 0.75, sections: ['hero', 'pricing'], sticky: false }],
      ['Closed', { reason: 'done ✔', duration_ms: 12_345, extra: { nested: { twice: [null, true] } } }],
    ];
    for (const args of tracked) await page.track(...args);

    const record = await settled(page, tracked.length);
    // Three requests in flight at once: their answers, and so the callbacks, come back in any order.
    const byEvent = (a: { event: string }, b: { event: string }) => a.event.localeCompare(b.event);
    expect([...record.callbacks].sort(byEvent)).toEqual(
      tracked.map(([event]) => ({ event, response: { error: null, status: 1 } })).sort(byEvent),
    );
    expectTrackAnswers(record, (body) => expect(JSON.parse(body)).toEqual({ error: null, status: 1 }));
    expect(record.responses).toHaveLength(tracked.length);
    await expectFormPosts(page, tracked.length);

    const sent = record.sent as SentEvent[];
    const deviceId = deviceIdOf(sent);
    expect(sent).toEqual(
      tracked.map(([event, properties]) => ({
        event,
        properties: {
          ...properties,
          test_case: 'unbatched',
          ...sdkProperties(deviceId),
          ...sdkEnvelope(),
          distinct_id: `$device:${deviceId}`,
        },
      })),
    );
    const stored = await waitForStoredEvents(h, whereProperty('test_case', 'unbatched'), tracked.length);
    expect(sortedByEvent(stored)).toEqual(sortedByEvent(sent.map((e) => asStored(e, gatewayAdds))));
  });

  it('sendBeacon: a beacon track() and the queue flushed when the page is left are stored (text/plain bodies)', async () => {
    const page = await openSite();
    // A long flush interval: the queued events can only leave by the beacon sent on page hide.
    await page.init(h.project.token, { api_host: gateway(), debug: true, batch_flush_interval_ms: 60_000 });
    await page.register({ test_case: 'beacon' });
    const tracked: Track[] = [
      ['Beaconed', everyJsonType(1), { transport: 'sendBeacon', send_immediately: true }],
      ['Queued 1', everyJsonType(2)],
      ['Queued 2', { last: true, note: 'left the page' }],
    ];
    for (const args of tracked) await page.track(...args);

    const record = await settled(page, tracked.length);
    // sendBeacon gives no answer: its callback says the browser accepted the beacon; queued events say 1 once queued.
    expect(record.callbacks).toEqual(tracked.map(([event]) => ({ event, response: 1 })));
    expect(record.responses).toEqual([]);
    expect(record.errors).toEqual([]);
    await eventually(async () =>
      expect(await page.wire()).toEqual([
        { method: 'POST', path: '/track/', resourceType: 'ping', contentType: 'text/plain;charset=UTF-8' },
      ]),
    );
    expect((await waitForStoredEvents(h, whereProperty('test_case', 'beacon'), 1))[0].event).toBe('Beaconed');

    // Leaving the page hides it: the SDK flushes its queue with navigator.sendBeacon (unseen by
    // Playwright once the page is gone, but the same text/plain body as the beacon above).
    await page.page.goto(`${site.origin}/elsewhere`);

    const stored = await waitForStoredEvents(h, whereProperty('test_case', 'beacon'), tracked.length);
    const sent = record.sent as SentEvent[];
    const deviceId = deviceIdOf(sent);
    expect(sent).toEqual(
      tracked.map(([event, properties]) => ({
        event,
        properties: {
          ...properties,
          test_case: 'beacon',
          ...sdkProperties(deviceId),
          ...sdkEnvelope(),
          distinct_id: `$device:${deviceId}`,
        },
      })),
    );
    const flushed = sent.map((e) => (e.event === 'Beaconed' ? e : viaQueue(e)));
    expect(sortedByEvent(stored)).toEqual(sortedByEvent(flushed.map((e) => asStored(e, gatewayAdds))));
  });

  // The SDK's base64 payload (its default for hosts other than *.mixpanel.com) encodes each UTF-16
  // unit on its own, so a surrogate pair arrives as two 3-byte sequences (CESU-8), not one 4-byte
  // UTF-8 sequence (mixpanel/mixpanel-js#385). The gateway must read them back as the character sent.
  it.each([
    { format: 'base64', config: {} },
    { format: 'json', config: { api_payload_format: 'json' } },
  ])(
    'emoji and other astral-plane text in a $format payload are stored as sent, in names and properties',
    async ({ format, config }) => {
      const page = await openSite();
      await page.init(h.project.token, { api_host: gateway(), debug: true, batch_requests: false, ...config });
      await page.register({ test_case: `astral-${format}` });
      await page.track(`Reacted ${ASTRAL_TEXT}`, {
        emoji: ASTRAL_TEXT,
        list: [ASTRAL_TEXT],
        nested: { text: `a${ASTRAL_TEXT}z` },
      });

      const record = await settled(page, 1);
      expect(record.callbacks).toEqual([{ event: `Reacted ${ASTRAL_TEXT}`, response: 1 }]);
      const stored = await waitForStoredEvents(h, whereProperty('test_case', `astral-${format}`), 1);
      expect(stored).toEqual((record.sent as SentEvent[]).map((e) => asStored(e, gatewayAdds)));
    },
  );
});
