import { eventually } from '@analytics/testing';
import { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../ingest/test/sdk/browser-sdk-page';
import {
  OWNER,
  PROJECT,
  prepareScreenshots,
  screenshot,
  seriousViolations,
  Standalone,
  startStandalone,
  watchErrors,
} from './console-browser';

jest.setTimeout(180_000);

/** Today on the clocks of `zone`, yyyy-mm-dd. */
const todayIn = (zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());

/**
 * The console's reports as they are built and a person's activity, in headless Chromium against the
 * standalone: a profile's activity feed over its whole identity cluster, paged; a funnel run before it
 * is saved, with a breakdown; retention's curve; the empty states' next steps; and the default days
 * of the project's time zone.
 */
describe('the console’s reports and activity feed', () => {
  let standalone: Standalone;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let projectId: number;

  const api = async (path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST', user = OWNER) => {
    const response = await fetch(`${standalone.url}${path}`, {
      method,
      headers: {
        Authorization: `Basic ${Buffer.from(`${user.username}:${user.secret}`).toString('base64')}`,
        'Content-Type': 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  beforeAll(async () => {
    prepareScreenshots();
    [standalone, browser] = await Promise.all([startStandalone(), launchChromium()]);
    projectId = ((await api('/api/app/me')).body.results.projects as { id: number }[])[0].id;
    // The events' last hour, all on one UTC day: within the first two hours after midnight, the hour
    // before midnight (a funnel over two days would count a person once a day).
    const clock = Math.floor(Date.now() / 1000);
    const midnight = clock - (clock % 86_400);
    const now = clock - midnight >= 7_200 ? clock : midnight - 1;
    const event = (name: string, time: number, properties: Record<string, unknown>, i: number) => ({
      event: name,
      properties: { time, $insert_id: `r${i}`, ...properties },
    });
    // Ann browses anonymously on a device, signs up (which links the device to her), views 55 pages and buys.
    const ann = [
      event('Viewed page', now - 3600, { distinct_id: '$device:dev-1', $device_id: 'dev-1', plan: 'pro' }, 0),
      event('Signed up', now - 3000, { distinct_id: 'ann', $user_id: 'ann', $device_id: 'dev-1' }, 1),
      ...Array.from({ length: 55 }, (_, i) =>
        event('Viewed page', now - 2000 + i, { distinct_id: 'ann', plan: 'pro' }, 2 + i),
      ),
      event('Purchased', now - 100, { distinct_id: 'ann', amount: 30 }, 57),
    ];
    const others = [
      event('Viewed page', now - 1800, { distinct_id: 'bob', plan: 'free' }, 100),
      event('Signed up', now - 1700, { distinct_id: 'bob' }, 101),
      event('Viewed page', now - 1600, { distinct_id: 'carl', plan: 'free' }, 102),
    ];
    const imported = await fetch(`${standalone.url}/import?strict=1`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from(`${PROJECT.secret}:`).toString('base64')}` },
      body: JSON.stringify([...ann, ...others]),
    });
    expect(imported.status).toBe(200);
    // The stream reads ann's cluster once the writer stored the events and the link (from yesterday: a run
    // just after midnight has them on two days).
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await eventually(async () => {
      const stream = await api(
        `/api/query/stream/query?project_id=${projectId}&distinct_ids=${encodeURIComponent('["ann"]')}&from_date=${yesterday}&to_date=${todayIn('UTC')}&limit=100`,
      );
      expect(stream.body.results?.events).toHaveLength(58);
    });

    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    errors = watchErrors(page);
    await page.goto(`${standalone.url}/events`);
    await page.fill('input[name=username]', OWNER.username);
    await page.fill('input[name=secret]', OWNER.secret);
    await page.click('button[type=submit]');
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await standalone?.stop();
  });

  it('shows a person’s activity: every id of their cluster, newest first, 50 at a time with Load more', async () => {
    await page.goto(`${standalone.url}/profiles?id=ann`);
    const feed = page.getByRole('list', { name: 'Activity, newest first' });
    const items = feed.getByRole('listitem');
    await eventually(async () => expect(await items.count()).toBe(50));
    await expect(items.first().innerText()).resolves.toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} — Purchased$/);
    await page.getByRole('button', { name: 'Load more' }).click();
    await eventually(async () => expect(await items.count()).toBe(58));
    await page.getByText('58 events: the whole activity of the last 90 days.').waitFor();
    await expect(page.getByRole('button', { name: 'Load more' }).count()).resolves.toBe(0);
    // The oldest: the anonymous page view, sent under the device's id before she signed up.
    const oldest = items.last();
    await expect(oldest.innerText()).resolves.toMatch(/— Viewed page$/);
    await oldest.locator('summary').click();
    await expect(oldest.getByRole('table', { name: 'Properties' }).innerText()).resolves.toMatch(
      /\$distinct_id_before_identity\s+\$device:dev-1/,
    );
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await screenshot(page, 'profile-activity');

    // Someone with no event in the range is told what to do next.
    await page.goto(`${standalone.url}/profiles?id=nobody`);
    await page.getByText('No event from this person in the last 90 days: pick a longer range above.').waitFor();
    expect(errors).toEqual([]);
  });

  it('runs a funnel as it is built, before saving it, broken down by a property, and says when no one entered it', async () => {
    await page.getByRole('link', { name: 'Funnels' }).click();
    await page.getByText(/^Pick two or more events above/).waitFor();
    await page.fill('textarea[name=steps]', 'Viewed page\nSigned up\nPurchased');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('heading', { name: 'Unsaved funnel' }).waitFor();
    const rows = page.locator('table[aria-label="Steps"] tbody tr');
    await eventually(async () =>
      expect(await rows.allInnerTexts()).toEqual([
        expect.stringMatching(/^1\. Viewed page\s+3\s+100\.0 %\s+100\.0 %$/),
        expect.stringMatching(/^2\. Signed up\s+2\s+66\.7 %\s+66\.7 %$/),
        expect.stringMatching(/^3\. Purchased\s+1\s+50\.0 %\s+33\.3 %$/),
      ]),
    );
    await page.getByRole('img', { name: 'Conversion of Unsaved funnel by step' }).waitFor();
    expect((await api(`/api/app/projects/${projectId}/funnels`)).body.results).toEqual([]);
    expect(new URL(page.url()).search).toBe('');

    await page.fill('input[name=on]', 'plan');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await eventually(async () => {
      const svg = await page.locator('.chart svg').innerHTML();
      expect(svg).toContain('pro');
      expect(svg).toContain('free');
      expect(svg).toContain('All users');
    });
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await screenshot(page, 'funnel-unsaved');

    await page.fill('input[name=from_date]', '2020-01-01');
    await page.fill('input[name=to_date]', '2020-01-31');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page
      .getByText(
        'No one did Viewed page from 2020-01-01 to 2020-01-31: widen the dates, or start the funnel at another event.',
      )
      .waitFor();

    // Saving it then keeps it, as before.
    await page.fill('input[name=name]', 'Browse to buy');
    await page.getByRole('button', { name: 'Save funnel' }).click();
    await page.waitForURL(/\/funnels\?funnel=\d+$/);
    await page.getByRole('heading', { name: 'Browse to buy', level: 2 }).waitFor();
    expect(errors).toEqual([]);
  });

  it('draws retention’s curve beside the heat map, and names the next step when no one was born', async () => {
    await page.getByRole('link', { name: 'Retention' }).click();
    await page.getByRole('img', { name: /^Retention curve: the share of users back in each day/ }).waitFor();
    // Three people born (a run just after midnight may have them on two days).
    const born = page.locator('table[aria-label="Retention by cohort"] tbody tr td:nth-child(2)');
    await eventually(async () =>
      expect((await born.allInnerTexts()).map(Number).reduce((sum, n) => sum + n, 0)).toBe(3),
    );
    await expect(page.locator('table[aria-label="Retention by cohort"] thead th').count()).resolves.toBe(2 + 8);
    await expect(page.locator('.chart svg').innerHTML()).resolves.toContain('All cohorts');
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await screenshot(page, 'retention-curve');

    // Saved, it reopens from its link with its definition, and is listed for boards.
    await page.fill('input[name=interval_count]', '3');
    await page.fill('input[name=name]', 'Back after a view');
    await page.getByRole('button', { name: 'Save report' }).click();
    await page.waitForURL(/\/retention\?report=\d+$/);
    await page.getByRole('link', { name: 'Back after a view' }).waitFor();
    const saved = (await api(`/api/app/projects/${projectId}/retention-reports`)).body.results;
    expect(saved).toEqual([
      expect.objectContaining({
        name: 'Back after a view',
        retention_type: 'birth',
        born_event: 'Viewed page',
        interval_count: 3,
      }),
    ]);
    await page.goto(page.url());
    await eventually(async () => expect(await page.inputValue('input[name=interval_count]')).toBe('3'));
    await expect(page.inputValue('input[name=name]')).resolves.toBe('Back after a view');
    await eventually(async () =>
      expect(await page.locator('table[aria-label="Retention by cohort"] thead th').count()).toBe(2 + 4),
    );

    await page.getByRole('link', { name: 'New report' }).click();
    await page.fill('input[name=born_event]', 'Never sent');
    await page.getByRole('button', { name: 'Run' }).click();
    await page
      .getByText(/^No one did Never sent for the first time from .* widen the dates, or pick another born event\.$/)
      .waitFor();
    await expect(page.getByRole('img', { name: /^Retention curve/ }).count()).resolves.toBe(0);
    expect(errors).toEqual([]);
  });

  it('starts every report at the days of the project’s time zone, not UTC’s', async () => {
    // A zone whose day differs from UTC's now: 14 hours ahead from 10:00 UTC, else 11 hours behind.
    const zone = new Date().getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
    expect(todayIn(zone)).not.toBe(todayIn('UTC'));
    expect((await api(`/api/app/projects/${projectId}`, { timezone: zone }, 'PATCH')).status).toBe(200);
    try {
      await page.goto(`${standalone.url}/funnels`);
      await expect(page.locator('input[name=to_date]').inputValue()).resolves.toBe(todayIn(zone));
      await page.goto(`${standalone.url}/retention`);
      await expect(page.locator('input[name=to_date]').inputValue()).resolves.toBe(todayIn(zone));
      await page.goto(`${standalone.url}/flows`);
      await expect(page.locator('input[name=to_date]').inputValue()).resolves.toBe(todayIn(zone));
      await page.goto(`${standalone.url}/profiles?id=ann`);
      await page.getByText(`Counted in ${zone}`).waitFor();
    } finally {
      await api(`/api/app/projects/${projectId}`, { timezone: 'UTC' }, 'PATCH');
    }
    expect(errors).toEqual([]);
  });
});
