import { Browser } from 'playwright-core';
import { launchChromium } from '../../ingest/test/sdk/browser-sdk-page';
import { OWNER, PROJECT, screenshot, Standalone, startStandalone, watchErrors } from './console-browser';

jest.setTimeout(180_000);

/**
 * The path a new user takes (issue: the first screen stayed white until a reload): a fresh start,
 * one event sent the way the start's welcome block shows, then the console opened at its root and
 * signed in with the owner account. The event must be on the first screen, without a reload.
 */
describe('the console on a fresh start with one event', () => {
  let standalone: Standalone;
  let browser: Browser;

  beforeAll(async () => {
    [standalone, browser] = await Promise.all([startStandalone(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await standalone?.stop();
  });

  it('shows that event on the first screen after sign-in', async () => {
    const sent = await fetch(`${standalone.url}/import?strict=1`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`${PROJECT.secret}:`).toString('base64')}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify([
        {
          event: 'First event',
          properties: { time: Date.now(), distinct_id: 'first-user', $insert_id: 'first-event-1' },
        },
      ]),
    });
    expect(sent.status).toBe(200);

    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    const errors = watchErrors(page);
    await page.goto(`${standalone.url}/`);
    await page.fill('input[name=username]', OWNER.username);
    await page.fill('input[name=secret]', OWNER.secret);
    await page.click('button[type=submit]');
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/events');
    // The live view's first answer, not a later poll: within its first request, well under its 10 s period.
    await page.getByRole('button', { name: 'Show the properties of First event by first-user' }).waitFor({
      timeout: 8_000,
    });
    await screenshot(page, 'first-screen');
    expect(errors).toEqual([]);
  });
});
