import { eventually } from '@analytics/testing';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { launchChromium, SdkPage, sdkSiteFiles } from '../../ingest/test/sdk/browser-sdk-page';
import { PageServer, startPageServer } from '../../ingest/test/sdk/page-server';
import { CONSOLE_PAGES } from '../src/console-files';
import {
  OWNER,
  prepareScreenshots,
  PROJECT,
  screenshot,
  seriousViolations,
  Standalone,
  startStandalone,
  watchErrors,
} from './console-browser';

jest.setTimeout(180_000);

/** The text of the focused element, read in the page. */
const activeText = () =>
  (globalThis as unknown as { document: { activeElement: { textContent: string } | null } }).document.activeElement
    ?.textContent;

/**
 * The web console in headless Chromium against the standalone run as its own process: sign-in,
 * events sent by the real browser SDK showing up live, an insights report and a funnel built and
 * saved through the UI, every page opened (screenshot, axe-core, no uncaught error), sign-out.
 */
describe('the web console', () => {
  let standalone: Standalone;
  let site: PageServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    prepareScreenshots();
    [standalone, site, browser] = await Promise.all([
      startStandalone(),
      startPageServer(sdkSiteFiles()),
      launchChromium(),
    ]);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    errors = watchErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await standalone?.stop();
  });

  const api = async (path: string, init: RequestInit = {}) => {
    const authorization = `Basic ${Buffer.from(`${OWNER.username}:${OWNER.secret}`).toString('base64')}`;
    const response = await fetch(`${standalone.url}${path}`, {
      ...init,
      headers: { Authorization: authorization, 'Content-Type': 'application/json' },
    });
    return {
      status: response.status,
      body: (await response.json()) as { results?: unknown } & Record<string, unknown>,
    };
  };
  const projectId = async () =>
    ((await api('/api/app/me')).body.results as { projects: { id: number }[] }).projects[0].id;

  it('serves its pages at their paths and leaves the API its own 404 answers', async () => {
    for (const path of ['/', ...CONSOLE_PAGES, '/funnels/']) {
      const response = await fetch(`${standalone.url}${path}`);
      expect({ path, status: response.status, type: response.headers.get('content-type') }).toEqual({
        path,
        status: 200,
        type: 'text/html; charset=utf-8',
      });
      expect(await response.text()).toContain('<div id="root">');
    }
    expect(await (await fetch(`${standalone.url}/nope`)).json()).toEqual({
      error: 'no such endpoint: GET /nope',
      status: 0,
    });
    expect(await (await fetch(`${standalone.url}/api/app/nope`)).json()).toEqual({
      status: 'error',
      error: 'no such endpoint: GET /api/app/nope',
    });
    expect((await fetch(`${standalone.url}/events`, { method: 'POST' })).status).toBe(404);
  });

  it('was generated from operations the services still serve', async () => {
    const served = (await (await fetch(`${standalone.url}/api/docs/openapi.json`)).json()) as {
      paths: Record<string, object>;
    };
    const copy = JSON.parse(readFileSync(resolve(__dirname, '../../../web/console/openapi.json'), 'utf8')) as {
      paths: Record<string, object>;
    };
    const operations = (doc: { paths: Record<string, object> }) =>
      Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
    const missing = operations(copy).filter((op) => !operations(served).includes(op));
    expect(missing).toEqual([]);
  });

  it('refuses a wrong secret in words, then signs in a service account and shows the empty project its first step', async () => {
    await page.goto(`${standalone.url}/events`);
    await page.fill('input[name=username]', OWNER.username);
    await page.fill('input[name=secret]', 'not-the-secret');
    await page.click('button[type=submit]');
    await page.getByRole('alert').filter({ hasText: 'The username or secret was not accepted' }).waitFor();
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await screenshot(page, 'sign-in-refused');

    // Signing in reads the account once: `/me` lists its projects, so no project read follows.
    const accountReads: string[] = [];
    const countAccountReads = (request: { url(): string }) => {
      const path = new URL(request.url()).pathname;
      if (path === '/api/app/me' || path.startsWith('/api/app/projects/')) accountReads.push(path);
    };
    page.on('request', countAccountReads);
    await page.fill('input[name=secret]', OWNER.secret);
    await page.click('button[type=submit]');
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
    await expect(page.locator('header.top').innerText()).resolves.toMatch(/Region US/);
    page.off('request', countAccountReads);
    expect(accountReads).toEqual(['/api/app/me']);
    await page.getByRole('heading', { name: 'Send your first event' }).waitFor();
    await expect(page.locator('.first-step').innerText()).resolves.toContain(PROJECT.token);
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await screenshot(page, 'events-empty');
  });

  it('shows events sent through the browser SDK on /events, their properties on a click, filtered by name and by a where expression', async () => {
    // Three visitors, each in a browser profile of its own, on a site of another origin.
    const journeys = [
      ['u1', ['Viewed page', 'Signed up', 'Purchased']],
      ['u2', ['Viewed page', 'Signed up']],
      ['u3', ['Viewed page']],
    ] as const;
    for (const [user, events] of journeys) {
      const visitor = await browser.newContext();
      const sdk = await SdkPage.open(visitor, `${site.origin}/`, standalone.url);
      await sdk.init(PROJECT.token, { api_host: standalone.url, batch_requests: false });
      await sdk.identify(user);
      for (const event of events) await sdk.track(event, { plan: user === 'u1' ? 'pro' : 'free' });
      await eventually(async () => {
        const record = await sdk.record();
        if (record.callbacks.length < events.length || record.inFlight > 0) throw new Error('SDK still sending');
      });
      await visitor.close();
    }
    // The live view polls every 10 s; the last visitor's event is stored after every other one (no broker in
    // the standalone: each is stored before its request is answered), so once it shows, all six can.
    await page.getByRole('button', { name: 'Show the properties of Viewed page by u3' }).waitFor({ timeout: 40_000 });
    // Our six events, besides the `$identify` the SDK sends for identify().
    const rows = await page.locator('table[aria-label="Newest events"] tbody tr').evaluateAll((trs) =>
      trs.map((tr) =>
        [...tr.querySelectorAll('td')]
          .slice(1)
          .map((td) => td.textContent)
          .join(' by '),
      ),
    );
    expect(rows.filter((row) => !row.startsWith('$')).sort()).toEqual(
      journeys.flatMap(([user, events]) => events.map((event) => `${event} by ${user}`)).sort(),
    );
    await page.getByRole('button', { name: 'Show the properties of Purchased by u1' }).click();
    const detail = page.locator('section.detail');
    await expect(detail.innerText()).resolves.toMatch(/plan\s+pro/);
    await expect(detail.innerText()).resolves.toMatch(/mp_lib\s+web/);

    // Filters: an event name, then a `where` expression, each applied by the API.
    const listed = () => page.locator('table[aria-label="Newest events"] tbody tr td:nth-child(3)').allInnerTexts();
    await page.fill('input[name=event]', 'Signed up');
    await page.getByRole('button', { name: 'Apply' }).click();
    await eventually(async () => expect((await listed()).sort()).toEqual(['u1', 'u2']));
    await page.fill('input[name=event]', '');
    await page.fill('input[name=where]', 'properties["plan"] == "pro"');
    await page.getByRole('button', { name: 'Apply' }).click();
    await eventually(async () => expect(await listed()).toEqual(['u1', 'u1', 'u1']));
    await page.fill('input[name=where]', 'properties["plan"] ==');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /^The request was refused: .*where/ })
      .waitFor();
    await page.fill('input[name=where]', '');
    await page.getByRole('button', { name: 'Apply' }).click();
    await eventually(async () => expect((await listed()).length).toBe(9));
    await screenshot(page, 'events-live');
  });

  it('builds an insights report with a breakdown, saves it, draws an annotation added on the page, and reopens it from its link', async () => {
    const id = await projectId();
    await page.getByRole('link', { name: 'Insights' }).click();
    await page.fill('input[name=name]', 'Activity by browser');
    // Events picked from the project's own data, not typed from memory.
    const picker = page.getByRole('group', { name: 'Events in this project' });
    await picker.getByRole('button', { name: '+ Viewed page' }).click();
    await picker.getByRole('button', { name: '+ Signed up' }).click();
    await expect(page.inputValue('input[name=events]')).resolves.toBe('Viewed page, Signed up');
    await page.selectOption('select[name=math]', 'unique');
    await page.fill('input[name=last_days]', '7');
    // The breakdown field offers the first event's properties.
    await eventually(async () =>
      expect(await page.locator('#insights-properties option[value="$browser"]').count()).toBe(1),
    );
    await page.fill('input[name=on]', '$browser');
    // Run shows the report as built, before anything is saved.
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('heading', { name: 'Unsaved report' }).waitFor();
    await page.getByRole('img', { name: /line chart of Viewed page, Viewed page · Chrome, Signed up/ }).waitFor();
    expect((await api(`/api/app/projects/${id}/bookmarks`)).body.results).toEqual([]);
    expect(new URL(page.url()).search).toBe('');

    await page.getByRole('button', { name: 'Save report and run' }).click();
    await page.waitForURL(/\/insights\?report=\d+$/);
    await page.getByRole('heading', { name: 'Activity by browser' }).waitFor();
    const link = page.url();
    const chart = page.getByRole('img', { name: /line chart of Viewed page, Viewed page · Chrome, Signed up/ });
    await chart.waitFor();
    // An annotation added on the page is drawn on the chart.
    await page.fill('input[name=annotation_description]', 'Launch day');
    await page.getByRole('button', { name: 'Add annotation' }).click();
    await eventually(async () => expect(await chart.locator('svg').innerHTML()).toContain('Launch day'));

    // Unique users per day, summed over the week (all sent today): three viewed a page, two signed up, all in Chrome.
    await expect(page.locator('table[aria-label="Sums by series"] tbody tr').allInnerTexts()).resolves.toEqual([
      'Viewed page\t3',
      'Viewed page · Chrome\t3',
      'Signed up\t2',
      'Signed up · Chrome\t2',
    ]);

    const saved = (await api(`/api/app/projects/${id}/bookmarks`)).body.results as {
      name: string;
      params: { events: unknown[]; on: string };
    }[];
    expect(saved).toEqual([
      expect.objectContaining({
        name: 'Activity by browser',
        params: expect.objectContaining({ on: 'properties["$browser"]' }),
      }),
    ]);

    await page.goto(link);
    await page.getByRole('img', { name: /line chart of Viewed page/ }).waitFor();
    await expect(page.inputValue('input[name=events]')).resolves.toBe('Viewed page, Signed up');
    await expect(page.inputValue('input[name=on]')).resolves.toBe('$browser');
    await screenshot(page, 'insights-report');
  });

  it('builds and saves a funnel, and shows its conversion by step', async () => {
    await page.getByRole('link', { name: 'Funnels' }).click();
    await page.fill('input[name=name]', 'Signup to purchase');
    const picker = page.getByRole('group', { name: 'Events in this project' });
    for (const step of ['Viewed page', 'Signed up', 'Purchased'])
      await picker.getByRole('button', { name: `+ ${step}` }).click();
    await expect(page.inputValue('textarea[name=steps]')).resolves.toBe('Viewed page\nSigned up\nPurchased');
    await page.getByRole('button', { name: 'Save funnel' }).click();
    await page.waitForURL(/\/funnels\?funnel=\d+$/);
    const rows = page.locator('table[aria-label="Steps"] tbody tr');
    await rows.nth(2).waitFor();
    await expect(rows.allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/^1\. Viewed page\s+3\s+100\.0 %\s+100\.0 %$/),
      expect.stringMatching(/^2\. Signed up\s+2\s+66\.7 %\s+66\.7 %$/),
      expect.stringMatching(/^3\. Purchased\s+1\s+50\.0 %\s+33\.3 %$/),
    ]);
    await expect(page.getByRole('link', { name: 'Signup to purchase' }).count()).resolves.toBe(1);

    // Broken down by a property: a bar series per value beside all users.
    await page.fill('input[name=on]', '$browser');
    await page.getByRole('button', { name: 'Run' }).click();
    await eventually(async () => expect(await page.locator('.chart svg').innerHTML()).toContain('Chrome'));
    await expect(page.locator('.chart svg').innerHTML()).resolves.toContain('All users');
    await screenshot(page, 'funnel-result');
  });

  it('shows the paths after an event as a Sankey diagram, with the drop-off by step', async () => {
    await page.getByRole('link', { name: 'Flows' }).click();
    await page.getByRole('heading', { name: 'Flows', level: 1 }).waitFor();
    await page.fill('input[name=event]', 'Viewed page');
    await page.selectOption('select[name=steps]', '2');
    await page.getByRole('button', { name: 'Run' }).click();
    const paths = page.locator('table[aria-label="Paths"] tbody tr');
    await eventually(async () =>
      expect(await paths.allInnerTexts()).toEqual([
        expect.stringMatching(/^Viewed page\s+1 \(33 %\)$/),
        expect.stringMatching(/^Viewed page → Signed up\s+1 \(33 %\)$/),
        expect.stringMatching(/^Viewed page → Signed up → Purchased\s+1 \(33 %\)$/),
      ]),
    );
    // The paths read the same with 3 steps (the page's first run) as with 2: wait for the 2-step answer.
    await eventually(async () =>
      expect(await page.locator('table[aria-label="Drop-off by step"] tbody tr').allInnerTexts()).toEqual([
        expect.stringMatching(/^Viewed page\s+3\s*$/),
        expect.stringMatching(/^1\s+2 \(67 %\)\s+1$/),
        expect.stringMatching(/^2\s+1 \(33 %\)\s+1$/),
      ]),
    );
    const sankey = await page.locator('.chart svg').innerHTML();
    expect(sankey).toContain('1. Viewed page');
    expect(sankey).toContain('3. Purchased');
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    await screenshot(page, 'flows-after');
  });

  it('lets an account with several projects pick one, and shows each project its region and first step', async () => {
    const organization = ((await api('/api/app/me')).body.results as { organization: { id: number } }).organization.id;
    const created = await api(`/api/app/organizations/${organization}/projects`, {
      method: 'POST',
      body: JSON.stringify({ name: 'EU shop', region: 'EU' }),
    });
    expect(created.status).toBe(201);
    const euShop = created.body.results as { id: number; token: string };
    await page.reload();
    const picker = page.getByLabel('Project');
    await picker.selectOption(String(euShop.id));
    await page.locator('header.top', { hasText: 'Region EU' }).waitFor();
    await expect(page.locator('.first-step').first().innerText()).resolves.toContain(euShop.token);
    await picker.selectOption(String(await projectId()));
    await page.locator('header.top', { hasText: 'Region US' }).waitFor();
  });

  it('shows birth and compounded retention as a heat map', async () => {
    await page.goto(`${standalone.url}/retention`);
    const today = new Date().toISOString().slice(0, 10);
    const todayRow = page.locator('table[aria-label="Retention by cohort"] tbody tr', { hasText: today });
    await expect(page.inputValue('input[name=born_event]')).resolves.not.toMatch(/^\$/);
    await eventually(async () => expect(await todayRow.innerText()).toMatch(/\s3\s/));
    await page.selectOption('select[name=retention_type]', 'compounded');
    await page.getByRole('button', { name: 'Run' }).click();
    await eventually(async () => expect(await todayRow.innerText()).toMatch(/^\d{4}-\d{2}-\d{2}\s+3\s+3 \(100 %\)/));
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    await screenshot(page, 'retention-compounded');
  });

  it('reaches a page by keyboard alone', async () => {
    await page.goto(`${standalone.url}/events`);
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
    await page.keyboard.press('Tab');
    await expect(page.evaluate(activeText)).resolves.toBe('Skip to content');
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate(activeText)) === 'Retention') break;
    }
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/retention$/);
  });

  it('lists cohorts with their sizes and asks for the members of one', async () => {
    const id = await projectId();
    const cohort = {
      name: 'Buyers',
      description: 'bought this month',
      definition: { behavior: { event: 'Purchased', min_count: 1, last_days: 30 } },
    };
    expect(
      (await api(`/api/app/projects/${id}/cohorts`, { method: 'POST', body: JSON.stringify(cohort) })).status,
    ).toBe(201);
    await page.getByRole('link', { name: 'Cohorts' }).click();
    const row = page.locator('table[aria-label="Cohorts"] tbody tr', { hasText: 'Buyers' });
    await expect(row.innerText()).resolves.toMatch(/^Buyers\s+1\s+bought this month/);
    await page.getByRole('button', { name: 'Show the members of Buyers' }).click();
    await page.getByRole('heading', { name: 'Members of Buyers (1)' }).waitFor();
    await page.getByRole('link', { name: 'u1', exact: true }).waitFor();
    await screenshot(page, 'cohort-members');
  });

  it('finds a profile and shows its properties and latest events', async () => {
    await page.getByRole('link', { name: 'Profiles' }).click();
    await page.getByRole('link', { name: 'u1', exact: true }).click();
    await page.waitForURL(/\/profiles\?id=u1$/);
    const profile = page.locator('section.detail');
    await profile.getByRole('heading', { name: 'u1' }).waitFor();
    await eventually(async () => expect(await profile.innerText()).toMatch(/— Purchased/));
    await screenshot(page, 'profile');
  });

  it('creates a service account on /settings and shows its secret once, a secret that works', async () => {
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.fill('input[name=new_username]', 'etl');
    await page.selectOption('select[name=role]', 'consumer');
    await page.getByRole('button', { name: 'Create' }).click();
    const notice = page.locator('.notice');
    await notice.waitFor();
    const username = (await notice.locator('strong').innerText()).trim();
    const secret = (await notice.locator('pre').innerText()).trim();
    expect(username).toMatch(/^etl\..+/);
    const me = await fetch(`${standalone.url}/api/app/me`, {
      headers: { Authorization: `Basic ${Buffer.from(`${username}:${secret}`).toString('base64')}` },
    });
    expect(me.status).toBe(200);
    await expect(page.locator('table[aria-label="Service accounts"]').innerText()).resolves.toContain(username);
    await page.reload();
    await page.getByRole('heading', { name: 'Service accounts' }).waitFor();
    await expect(page.locator('.notice').count()).resolves.toBe(0);
  });

  it("shows the project's usage on /settings (events stored, today's count, profiles, the bytes estimate) and sets its data retention", async () => {
    const id = await projectId();
    const { results } = (await api(`/api/app/projects/${id}/usage`)).body as {
      results: { events: { total: number; oldest: string }; profiles: number; bytes_on_disk: number };
    };
    // The six tracked events and the SDK's three `$identify`, all sent today.
    expect(results.events.total).toBe(9);
    expect(results.bytes_on_disk).toBeGreaterThan(0);
    await page.getByRole('link', { name: 'Settings' }).click();
    const facts = page.locator('dl[aria-label="Usage"]');
    await facts.waitFor();
    const text = await facts.innerText();
    expect(text).toMatch(/Events stored\s+9\n/);
    expect(text).toContain(`Oldest event\n${results.events.oldest}`);
    expect(text).toMatch(new RegExp(`User profiles\\s+${results.profiles}\\n`));
    expect(text).toMatch(/Bytes on disk \(estimate\)\s+[\d.]+ (bytes|kB|MB)/);
    const today = new Date().toISOString().slice(0, 10);
    await expect(page.locator('table[aria-label="Events per day"] tbody').innerText()).resolves.toBe(`${today}\t9`);
    await page.getByRole('img', { name: /Events stored per day/ }).waitFor();
    await expect(page.getByText('Events are kept forever.').count()).resolves.toBe(1);
    await screenshot(page, 'settings-usage');

    // Data retention: a value the API refuses is shown in its words; 30 days is saved; empty keeps events for ever.
    const retention = page.locator('input[name=data_retention_days]');
    const save = page.getByRole('button', { name: 'Save retention' });
    await retention.fill('40000');
    await save.click();
    await page
      .getByRole('alert')
      .filter({ hasText: /^The request was refused: data_retention_days must be a whole number of days from 1 to / })
      .waitFor();
    await retention.fill('30');
    await save.click();
    await page.getByText('Saved. Events are kept for 30 days.').waitFor();
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    const setting = async () =>
      ((await api(`/api/app/projects/${id}`)).body.results as { data_retention_days: number | null })
        .data_retention_days;
    expect(await setting()).toBe(30);
    // Today's events are inside 30 days: still counted.
    await expect(facts.innerText()).resolves.toMatch(/Events stored\s+9\n/);
    await retention.fill('');
    await save.click();
    await page.getByText('Saved. Events are kept forever.').waitFor();
    expect(await setting()).toBeNull();
  });

  it('sets the time zone on /settings, warning that history is re-bucketed, a refused name shown in the API words', async () => {
    const id = await projectId();
    const setting = async () => ((await api(`/api/app/projects/${id}`)).body.results as { timezone: string }).timezone;
    await page.getByRole('link', { name: 'Settings' }).click();
    const zone = page.locator('input[name=timezone]');
    await zone.waitFor();
    await expect(zone.inputValue()).resolves.toBe('UTC');
    await page.getByText(/^Changing the time zone re-buckets all history/).waitFor();
    const save = page.getByRole('button', { name: 'Save time zone' });
    await zone.fill('Mars/Olympus_Mons');
    await save.click();
    await page
      .getByRole('alert')
      .filter({ hasText: /^The request was refused: timezone must be an IANA time zone name/ })
      .waitFor();
    expect(await setting()).toBe('UTC');
    await zone.fill('Europe/Berlin');
    await save.click();
    await page.getByText('Saved. Reports count days, weeks and months in Europe/Berlin.').waitFor();
    expect(await setting()).toBe('Europe/Berlin');
    await screenshot(page, 'settings-time-zone');
    // Back to UTC: the pages after this one count today's events in UTC days.
    await zone.fill('UTC');
    await save.click();
    await page.getByText('Saved. Reports count days, weeks and months in UTC.').waitFor();
    expect(await setting()).toBe('UTC');
  });

  it('hides and drops events from /dictionary, through the schema API', async () => {
    const id = await projectId();
    await page.getByRole('link', { name: 'Dictionary' }).click();
    await page.getByRole('checkbox', { name: 'Hide Signed up' }).check();
    await eventually(async () =>
      expect(await page.getByRole('checkbox', { name: 'Drop Purchased' }).isEnabled()).toBe(true),
    );
    await page.getByRole('checkbox', { name: 'Drop Purchased' }).check();
    await eventually(async () => {
      const schemas = (await api(`/api/app/projects/${id}/schemas/event`)).body.results as {
        name: string;
        schemaJson: { metadata?: Record<string, object> };
      }[];
      expect(Object.fromEntries(schemas.map((s) => [s.name, s.schemaJson.metadata]))).toEqual({
        'Signed up': { 'com.vendor': { hidden: true } },
        Purchased: { 'com.vendor': { dropped: true } },
      });
    });
    await page.reload();
    await eventually(async () =>
      expect(await page.getByRole('checkbox', { name: 'Hide Signed up' }).isChecked()).toBe(true),
    );
    await expect(page.getByRole('checkbox', { name: 'Drop Purchased' }).isChecked()).resolves.toBe(true);
    await expect(page.getByRole('checkbox', { name: 'Hide Purchased' }).isChecked()).resolves.toBe(false);
  });

  /** What each page shows of the data the tests above sent and saved. */
  const SHOWS: Record<(typeof CONSOLE_PAGES)[number], string> = {
    '/events': 'Purchased',
    '/insights': 'Activity by browser',
    '/funnels': 'Signup to purchase',
    // The new-board form lists the saved reports.
    '/boards': 'Signup to purchase',
    // The drop-off table's header: shown once the anchor (the most common event) has paths.
    '/flows': 'Reached',
    // Today's cohort row of the heat map.
    '/retention': new Date().toISOString().slice(0, 10),
    '/cohorts': 'bought this month',
    // No alert is made here: console-alerts.e2e-spec.ts drives the page.
    '/alerts': 'No alert yet',
    '/profiles': 'u2',
    '/dictionary': 'Signed up',
    '/settings': OWNER.username,
    // Without a link's token: what the page is for (console-boards.e2e-spec.ts opens a real link).
    '/shared': 'open the link you were given',
  };

  it.each(CONSOLE_PAGES)(
    '%s opens with its data, no uncaught error and no serious accessibility violation',
    async (path) => {
      await page.goto(`${standalone.url}${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      await page.locator('main').getByText(SHOWS[path], { exact: false }).first().waitFor();
      await expect(page.getByRole('alert').count()).resolves.toBe(0);
      await screenshot(page, `page-${path.slice(1)}`);
      await expect(seriousViolations(page)).resolves.toEqual([]);
      expect(errors).toEqual([]);
    },
  );

  it('signs out: the session is gone and the sign-in form is back; a project secret signs in too', async () => {
    // The last page opened above is /shared, which shows no account (and so no Sign out).
    await page.goto(`${standalone.url}/settings`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the analytics console' }).waitFor();
    await expect(page.evaluate(() => sessionStorage.length)).resolves.toBe(0);
    await page.reload();
    await page.locator('input[name=username]').waitFor();

    // A project secret: empty username, and the project's id.
    await page.fill('input[name=secret]', PROJECT.secret);
    await page.fill('input[name=project_id]', String(await projectId()));
    await page.click('button[type=submit]');
    await page.locator('header.top', { hasText: 'project secret' }).waitFor();
    await page.getByRole('link', { name: 'Funnels' }).click();
    await page.getByRole('link', { name: 'Signup to purchase' }).waitFor();
    // The root opens the live events.
    await page.goto(`${standalone.url}/`);
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/events');
    expect(errors).toEqual([]);
  });

  it('signs in at the root as a person arrives, lands on Events of a project with events, and clicks on to Settings', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.goto(`${standalone.url}/`);
    await page.fill('input[name=username]', OWNER.username);
    await page.fill('input[name=secret]', OWNER.secret);
    await page.click('button[type=submit]');
    // The redirect from / ran before the page listened for it: the first screen stayed blank until a reload.
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/events');
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Usage' }).waitFor();
    expect(errors).toEqual([]);
  });
});
