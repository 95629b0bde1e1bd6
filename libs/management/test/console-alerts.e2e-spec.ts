import { Browser } from 'playwright-core';
import { launchChromium } from '../../ingest/test/sdk/browser-sdk-page';
import { WebhookReceiver } from '../../alerts/test/webhook-receiver';
import { OWNER, screenshot, seriousViolations, Standalone, startStandalone, watchErrors } from './console-browser';

jest.setTimeout(180_000);

/**
 * The alerts page (docs/alerts.md): an alert created on a saved report through the form, its signing
 * secret shown once, the test button delivering to a local receiver (loopback allowed for the test),
 * and the history showing that delivery.
 */
describe('the console alerts page', () => {
  let standalone: Standalone;
  let browser: Browser;
  let receiver: WebhookReceiver;

  const api = async (path: string, init: RequestInit = {}) => {
    const authorization = `Basic ${Buffer.from(`${OWNER.username}:${OWNER.secret}`).toString('base64')}`;
    const response = await fetch(`${standalone.url}${path}`, {
      ...init,
      headers: { Authorization: authorization, 'Content-Type': 'application/json' },
    });
    expect(response.ok).toBe(true);
    return (await response.json()) as { results: Record<string, unknown> };
  };

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    [standalone, browser] = await Promise.all([
      startStandalone({ OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8' }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await standalone?.stop();
    await receiver?.close();
  });

  it('creates an alert on a saved report, sends a test delivery and shows it in the history', async () => {
    const projectId = ((await api('/api/app/me')).results as { projects: { id: number }[] }).projects[0].id;
    await api(`/api/app/projects/${projectId}/bookmarks`, {
      method: 'POST',
      body: JSON.stringify({
        name: 'Daily signups',
        params: { events: [{ event: 'Signed up', math: 'total' }], last_days: 7, unit: 'day' },
      }),
    });

    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    const errors = watchErrors(page);
    await page.goto(`${standalone.url}/alerts`);
    await page.fill('input[name=username]', OWNER.username);
    await page.fill('input[name=secret]', OWNER.secret);
    await page.click('button[type=submit]');
    await page.getByRole('heading', { name: 'Alerts', level: 1 }).waitFor();
    await page.getByRole('cell', { name: /No alert yet/ }).waitFor();

    await page.getByLabel('Name').fill('Signups dropped');
    await page.getByLabel('Saved report').selectOption({ label: 'Daily signups' });
    await page.getByLabel('Fires when the latest complete period is').selectOption('below');
    await page.getByLabel('Threshold').fill('5');
    await page.getByLabel('Webhook URL').fill(`${receiver.url}/console`);
    await page.getByRole('button', { name: 'Create alert' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /signing secret, shown only now: whsec_[0-9a-f]{32}/ })
      .waitFor();
    await page.getByRole('cell', { name: 'Signups dropped', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Send a test delivery for Signups dropped' }).click();
    await page.getByRole('status').filter({ hasText: 'delivered (HTTP 200)' }).waitFor();
    await page
      .getByRole('table', { name: 'History of Signups dropped' })
      .getByRole('cell', { name: 'test, attempt 1: 200', exact: true })
      .waitFor();
    expect(receiver.on('/console')).toHaveLength(1);
    expect(receiver.on('/console')[0].json).toMatchObject({ test: true, alert: { name: 'Signups dropped' } });

    await expect(seriousViolations(page)).resolves.toEqual([]);
    await screenshot(page, 'alerts');
    expect(errors).toEqual([]);
  });
});
