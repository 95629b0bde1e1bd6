import { eventually } from '@analytics/testing';
import { Browser } from 'playwright-core';
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

/**
 * Boards in the console, in headless Chromium against the standalone: a board made from two saved
 * reports through the page, its tiles drawn (an insights chart, a funnel's step table, a retention curve), then a share link
 * made with its button that opens the board read-only in a browser that never signed in, until revoked.
 */
describe('the console’s boards', () => {
  let standalone: Standalone;
  let browser: Browser;

  beforeAll(async () => {
    prepareScreenshots();
    [standalone, browser] = await Promise.all([startStandalone(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await standalone?.stop();
  });

  const api = async (path: string, body?: unknown, user = `${OWNER.username}:${OWNER.secret}`) => {
    const response = await fetch(`${standalone.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Authorization: `Basic ${Buffer.from(user).toString('base64')}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  it('makes a board of saved reports, shows its tiles, and shares it read-only', async () => {
    const projectId = ((await api('/api/app/me')).body.results.projects as { id: number }[])[0].id;
    const now = Math.floor(Date.now() / 1000);
    const events = [
      ['Signed up', 'u1'],
      ['Purchased', 'u1'],
      ['Signed up', 'u2'],
    ].map(([event, user], i) => ({
      event,
      properties: { time: now - 600 + i, distinct_id: user, $insert_id: `b${i}` },
    }));
    expect((await api('/import?strict=1', events, `${PROJECT.secret}:`)).status).toBe(200);
    const app = `/api/app/projects/${projectId}`;
    const params = { events: [{ event: 'Signed up', math: 'total' }], last_days: 7, unit: 'day' };
    expect((await api(`${app}/bookmarks`, { name: 'Sign-ups', params })).status).toBe(201);
    const funnel = {
      name: 'Buyers',
      steps: [{ event: 'Signed up' }, { event: 'Purchased' }],
      length: 1,
      length_unit: 'day',
    };
    expect((await api(`${app}/funnels`, funnel)).status).toBe(201);
    const retention = {
      name: 'Return',
      retention_type: 'birth',
      born_event: 'Signed up',
      unit: 'day',
      interval_count: 3,
    };
    expect((await api(`${app}/retention-reports`, retention)).status).toBe(201);
    // Queries see the events once the writer stored them.
    await eventually(async () =>
      expect((await api(`/api/query/events/names?project_id=${projectId}`)).body).toContain('Purchased'),
    );

    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    const errors = watchErrors(page);
    await page.goto(`${standalone.url}/boards`);
    await page.fill('input[name=username]', OWNER.username);
    await page.fill('input[name=secret]', OWNER.secret);
    await page.click('button[type=submit]');
    await page.getByRole('heading', { name: 'Boards', level: 1 }).waitFor();
    await page.getByText('No board yet').waitFor();
    await page.getByLabel('Name').fill('Growth');
    await page.getByLabel('Sign-ups (insights)').check();
    await page.getByLabel('Buyers (funnel)').check();
    await page.getByLabel('Return (retention)').check();
    await page.getByRole('button', { name: 'Create board' }).click();

    await page
      .getByRole('heading', { name: 'Growth', level: 1 })
      .waitFor()
      .catch(async (error: unknown) => {
        await screenshot(page, 'board-not-created');
        throw new Error(`${String(error)}\n${await page.locator('main').innerText()}\n${errors.join('\n')}`);
      });
    const chart = page.getByRole('region', { name: 'Sign-ups' });
    await chart.getByRole('img', { name: "Sign-ups over the board's days" }).waitFor();
    const steps = page.getByRole('region', { name: 'Buyers' }).getByRole('table', { name: 'Funnel steps' });
    await steps.getByRole('row', { name: /Purchased 1/ }).waitFor();
    await expect(steps.innerText()).resolves.toMatch(/Signed up\s+2/);
    // Retention's tile: the curve of every cohort of the board's days.
    await page
      .getByRole('region', { name: 'Return' })
      .getByRole('img', { name: "Return over the board's days" })
      .waitFor();
    await expect(page.getByRole('region', { name: 'Return' }).locator('svg').innerHTML()).resolves.toContain('day 0');
    await expect(seriousViolations(page)).resolves.toEqual([]);

    await page.getByRole('button', { name: 'Share read-only link' }).click();
    const link = await page.getByLabel('Share link').inputValue();
    expect(link).toMatch(new RegExp(`^${standalone.url}/shared\\?board=\\d+\\.\\d+\\.[\\w-]{43}$`));
    await screenshot(page, 'board');
    // The API answers the same board to anyone holding the token, as JSON.
    const token = new URL(link).searchParams.get('board')!;
    const shared = await fetch(`${standalone.url}/api/shared/boards/${token}`);
    expect(shared.status).toBe(200);
    const board = ((await shared.json()) as { results: { name: string; tiles: { result?: unknown }[] } }).results;
    expect(board.name).toBe('Growth');
    expect(board.tiles.map((tile) => tile.result !== undefined)).toEqual([true, true, true]);

    // The link opens the board read-only in a browser that never signed in: no form, no navigation, no credentials.
    const visitor = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    const visitorErrors = watchErrors(visitor);
    const sentCredentials: string[] = [];
    visitor.on('request', (request) => {
      if (request.headers().authorization) sentCredentials.push(request.url());
    });
    await visitor.goto(link);
    await visitor.getByRole('heading', { name: 'Growth', level: 1 }).waitFor();
    await visitor
      .getByRole('region', { name: 'Sign-ups' })
      .getByRole('img', { name: "Sign-ups over the board's days" })
      .waitFor();
    const visitorSteps = visitor.getByRole('region', { name: 'Buyers' }).getByRole('table', { name: 'Funnel steps' });
    await visitorSteps.getByRole('row', { name: /Purchased 1/ }).waitFor();
    await expect(visitorSteps.innerText()).resolves.toMatch(/Signed up\s+2/);
    await visitor
      .getByRole('region', { name: 'Return' })
      .getByRole('img', { name: "Return over the board's days" })
      .waitFor();
    await expect(visitor.getByText('The last 30 days').count()).resolves.toBe(1);
    await expect(visitor.locator('input[name=secret], nav').count()).resolves.toBe(0);
    expect(sentCredentials).toEqual([]);
    await expect(seriousViolations(visitor)).resolves.toEqual([]);
    await screenshot(visitor, 'shared-board');

    // Revoked, the same link says so in words.
    await page.getByRole('button', { name: 'Revoke links' }).click();
    await eventually(async () =>
      expect((await fetch(`${standalone.url}/api/shared/boards/${token}`)).status).toBe(404),
    );
    await visitor.reload();
    await visitor
      .getByRole('alert')
      .filter({ hasText: /^Not found: no shared board at this link/ })
      .waitFor();
    await expect(seriousViolations(visitor)).resolves.toEqual([]);
    expect(visitorErrors).toEqual([]);
    expect(errors).toEqual([]);
  });
});
