import { ServiceAccountsService } from '@analytics/accounts';
import { AppConfig } from '@analytics/config';
import { IngestModule } from '@analytics/ingest';
import { JobsModule } from '@analytics/jobs';
import { ProjectsModule, ProjectsService } from '@analytics/projects';
import { QueryModule } from '@analytics/query';
import { SavedReportsModule } from '@analytics/reports';
import { PlatformModule } from '@analytics/runtime';
import { engineNeeds, intakeOf } from '@analytics/service-map';
import { projectScope } from '@analytics/tenancy';
import { createTestEnvironment, eventually, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';
import { DynamicModule } from '@nestjs/common';
import { AlertsModule } from '../src';
import { AlertSweep } from '../src/alert-sweep';
import { SIGNATURE_HEADER } from '../src/alert-webhook';
import { AlertChecker } from '../src/alert-checker';
import { verifies, WebhookReceiver } from './webhook-receiver';

function alertsApp(config: AppConfig): DynamicModule {
  return {
    module: class AlertsTestModule {},
    imports: [
      PlatformModule.forRoot(config, engineNeeds(config, ['ingest', 'query', 'management'])),
      ProjectsModule,
      IngestModule.forRoot(intakeOf(config)),
      SavedReportsModule,
      QueryModule,
      JobsModule.forRoot({ pollingIntervalSeconds: 0.5, expiryCheckIntervalSeconds: 1 }),
      // Fast retries; the schedule's own cron is pushed far off (the test sweeps by hand).
      AlertsModule.forRoot({ backoffMs: 50, timeoutMs: 5_000, maxAttempts: 3, pollingIntervalSeconds: 0.5 }),
    ],
  };
}

const basic = (user: string, password = '') => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const DAY5 = '2024-03-05T00:00:00+00:00';
const DAY6 = '2024-03-06T00:00:00+00:00';
type Json = Record<string, unknown> & { results: Record<string, unknown> & Record<string, unknown>[] };

/** A report over two past days: both periods are complete whatever the day the test runs. */
const report = (on?: string) => ({
  name: on ? 'Signups by plan' : 'Signups',
  params: {
    events: [{ event: 'Signed up', math: 'total' }],
    from_date: '2024-03-05',
    to_date: '2024-03-06',
    unit: 'day',
    on,
  },
});

describe('alerts on saved insights reports, through HTTP, on real engines and a local webhook', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  let receiver: WebhookReceiver;
  let projectId: number;
  let secret: string;
  let analyst: string;
  let consumer: string;
  let otherProject: { id: number; auth: string };
  let bookmarkId: number;
  let breakdownId: number;

  const call = async (path: string, init: RequestInit & { auth?: string } = {}, status = 200): Promise<Json> => {
    const response = await fetch(`${service.baseUrl}${path}`, {
      ...init,
      headers: { Authorization: init.auth ?? basic(secret), 'Content-Type': 'application/json' },
    });
    const body = (await response.json()) as Json;
    expect({ status: response.status, body }).toMatchObject({ status });
    return body;
  };
  const app = (path: string) => `/api/app/projects/${projectId}${path}`;
  const post = (path: string, body: unknown, status = 201, auth = analyst) =>
    call(app(path), { method: 'POST', body: JSON.stringify(body), auth }, status);
  const alertOn = (path: string, rule: string, threshold: number, extra: object = {}) => ({
    name: `${rule} ${threshold}`,
    bookmark_id: bookmarkId,
    rule,
    threshold,
    cadence: 'hourly',
    webhook_url: `${receiver.url}${path}`,
    ...extra,
  });
  const history = async (id: number) => (await call(app(`/alerts/${id}/history`), { auth: consumer })).results;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    environment = await createTestEnvironment({
      env: { QUERY_LIMIT_PER_SECOND: '1000', QUERY_LIMIT_PER_HOUR: '100000', OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8' },
    });
    service = await startTestApp(alertsApp, environment.config);
    const projects = service.app.get(ProjectsService);
    const organization = await projects.createOrganization('Alerts');
    const created = await projects.createProject(organization.id, 'Main');
    projectId = created.project.id;
    secret = created.secret;
    const other = await projects.createProject(organization.id, 'Other');
    otherProject = { id: other.project.id, auth: basic(other.secret) };
    const accounts = service.app.get(ServiceAccountsService);
    for (const role of ['analyst', 'consumer'] as const) {
      const { view, secret: password } = await accounts.create(organization.id, null, {
        username: role,
        role,
        projects: [{ id: projectId, role }],
      });
      if (role === 'analyst') analyst = basic(view.account.username, password);
      else consumer = basic(view.account.username, password);
    }
    // 10 signups on March 5th, 4 on March 6th (the latest complete period): -60 % day over day.
    const events = [
      ...Array.from({ length: 10 }, (_, i) => ['2024-03-05T10:00:00Z', `a${i}`, 'pro']),
      ...Array.from({ length: 4 }, (_, i) => ['2024-03-06T10:00:00Z', `b${i}`, i % 2 ? 'pro' : 'free']),
    ].map(([time, user, plan], i) => ({
      event: 'Signed up',
      properties: { time: Date.parse(time) / 1000, distinct_id: user, $insert_id: `e${i}`, plan },
    }));
    await call('/import?strict=1', { method: 'POST', body: JSON.stringify(events) });
    bookmarkId = (await post('/bookmarks', report())).results.id as number;
    breakdownId = (await post('/bookmarks', report('properties["plan"]'))).results.id as number;
    await eventually(async () => {
      const answer = await call(`/api/query/insights?bookmark_id=${bookmarkId}`);
      expect((answer as unknown as { series: Record<string, Record<string, number>> }).series['Signed up'][DAY6]).toBe(
        4,
      );
    });
  });
  afterAll(async () => {
    await service?.close();
    await environment?.dispose();
    await receiver?.close();
  });

  it('checks on the schedule: signed webhooks for the rules that fire, a retry after a 500, errors recorded', async () => {
    receiver.answer('/above', 500);
    const alerts = {
      above: await post('/alerts', alertOn('/above', 'above', 3)),
      below: await post('/alerts', alertOn('/below', 'below', 5)),
      quietBelow: await post('/alerts', alertOn('/quiet-below', 'below', 3)),
      changed: await post('/alerts', alertOn('/changed', 'changed_by_percent', 50)),
      quietChanged: await post('/alerts', alertOn('/quiet-changed', 'changed_by_percent', 70)),
      breakdown: await post('/alerts', alertOn('/breakdown', 'above', 3, { bookmark_id: breakdownId })),
      broken: await post('/alerts', alertOn('/broken', 'above', 0, { series: 'Nope' })),
    };
    const id = (name: keyof typeof alerts) => alerts[name].results.id as number;
    const signingSecret = alerts.above.results.signing_secret as string;
    expect(signingSecret).toMatch(/^whsec_[0-9a-f]{32}$/);
    expect(await call(app(`/alerts/${id('above')}`), { auth: consumer })).not.toHaveProperty('results.signing_secret');

    expect(await service.app.get(AlertSweep).sweep()).toBe(7);
    const states = await eventually(async () => {
      const listed = (await call(app('/alerts'), { auth: consumer })).results as unknown as {
        id: number;
        last_state: string;
      }[];
      expect(listed.map((alert) => alert.last_state)).not.toContain('pending');
      return Object.fromEntries(listed.map((alert) => [alert.id, alert.last_state]));
    });
    expect(Object.keys(alerts).map((name) => states[id(name as keyof typeof alerts)])).toEqual([
      'fired',
      'fired',
      'ok',
      'fired',
      'ok',
      'fired',
      'error',
    ]);

    const [failed, delivered] = receiver.on('/above');
    expect(receiver.on('/above')).toHaveLength(2);
    expect(failed.body).toBe(delivered.body);
    expect(verifies(signingSecret, delivered.body, delivered.headers[SIGNATURE_HEADER.toLowerCase()])).toBe(true);
    expect(verifies('whsec_wrong', delivered.body, delivered.headers[SIGNATURE_HEADER.toLowerCase()])).toBe(false);
    expect(delivered.json).toMatchObject({
      alert: { id: id('above'), name: 'above 3', rule: 'above', threshold: 3, cadence: 'hourly' },
      report: { id: bookmarkId, name: 'Signups', series: 'Signed up', unit: 'day' },
      project_id: projectId,
      period: DAY6,
      value: 4,
      previous_value: 10,
      threshold: 3,
      fired: true,
      test: false,
      link: `/insights?report=${bookmarkId}`,
    });
    expect(
      (await history(id('above'))).map(({ attempt, http_status, fired, period }) => ({
        attempt,
        http_status,
        fired,
        period,
      })),
    ).toEqual([
      { attempt: 2, http_status: 200, fired: true, period: DAY6 },
      { attempt: 1, http_status: 500, fired: true, period: DAY6 },
    ]);
    expect(receiver.on('/below')).toHaveLength(1);
    expect(receiver.on('/changed')[0].json).toMatchObject({ value: 4, previous_value: 10, threshold: 50 });
    expect(receiver.on('/breakdown')[0].json).toMatchObject({ value: 4, previous_value: 10 });
    expect(receiver.on('/quiet-below')).toHaveLength(0);
    expect(receiver.on('/quiet-changed')).toHaveLength(0);
    expect(await history(id('quietChanged'))).toEqual([
      expect.objectContaining({
        period: DAY6,
        value: 4,
        previous_value: 10,
        fired: false,
        attempt: 0,
        http_status: null,
      }),
    ]);
    expect(await history(id('broken'))).toEqual([
      expect.objectContaining({ fired: false, error: expect.stringContaining('the report has no series "Nope"') }),
    ]);

    // The same period again, as a second replica or a later check would see it: nothing fires twice.
    const checker = service.app.get(AlertChecker);
    const sent = receiver.received.length;
    for (const name of Object.keys(alerts))
      await checker.check(projectScope(projectId), id(name as keyof typeof alerts));
    expect(receiver.received).toHaveLength(sent);
    expect(await history(id('above'))).toHaveLength(2);
    expect(await history(id('quietChanged'))).toHaveLength(1);
  });

  it('sends a test delivery on demand and reports what the receiver answered', async () => {
    const created = await post('/alerts', alertOn('/test-button', 'below', 1));
    const alertId = created.results.id as number;
    await post(`/alerts/${alertId}/test`, {}, 403, consumer);
    const test = await post(`/alerts/${alertId}/test`, {}, 200);
    expect(test.results).toEqual({ delivered: true, attempts: 1, http_status: 200, error: null });
    const [received] = receiver.on('/test-button');
    expect(received.json).toMatchObject({ test: true, fired: false, period: DAY6, value: 4 });
    expect(
      verifies(created.results.signing_secret as string, received.body, received.headers['x-alert-signature']),
    ).toBe(true);

    receiver.answer('/test-button', 503);
    const failed = await post(`/alerts/${alertId}/test`, {}, 200);
    expect(failed.results).toEqual({
      delivered: false,
      attempts: 1,
      http_status: 503,
      error: 'the webhook answered 503',
    });
    expect((await history(alertId)).map(({ test, http_status }) => ({ test, http_status }))).toEqual([
      { test: true, http_status: 503 },
      { test: true, http_status: 200 },
    ]);
  });

  it('refuses bad alerts with a clear 400, and keeps roles and projects apart', async () => {
    const good = alertOn('/refused', 'above', 1);
    const refusal = async (body: object) => (await post('/alerts', body, 400)).error;
    expect(await refusal({ ...good, bookmark_id: 999_999 })).toBe(
      'bookmark_id: no saved insights report 999999 in this project',
    );
    expect(await refusal({ ...good, webhook_url: 'not a url' })).toBe('webhook_url: not a URL');
    expect(await refusal({ ...good, webhook_url: 'ftp://127.0.0.1/x' })).toBe('webhook_url: must be http or https');
    expect(await refusal({ ...good, webhook_url: 'http://10.1.2.3/hook' })).toMatch(
      /^webhook_url: 10\.1\.2\.3 is not a public address/,
    );
    expect(await refusal({ ...good, rule: 'changed_by_percent', threshold: -5 })).toMatch(/^threshold: /);
    expect(await refusal({ ...good, threshold: 'ten' })).toMatch(/threshold/);
    expect(await refusal({ ...good, rule: 'sideways' })).toMatch(/rule/);
    expect(await refusal({ ...good, cadence: 'weekly' })).toMatch(/cadence/);

    await post('/alerts', good, 403, consumer);
    const alertId = (await post('/alerts', good)).results.id as number;
    await call(
      app(`/alerts/${alertId}`),
      { method: 'PATCH', body: JSON.stringify({ threshold: 2 }), auth: consumer },
      403,
    );
    const patched = await call(app(`/alerts/${alertId}`), {
      method: 'PATCH',
      body: JSON.stringify({ threshold: 2, enabled: false }),
      auth: analyst,
    });
    expect(patched.results).toMatchObject({ id: alertId, threshold: 2, enabled: false, rule: 'above' });
    await call(
      app(`/alerts/${alertId}`),
      { method: 'PATCH', body: JSON.stringify({ webhook_url: 'http://10.1.2.3/' }) },
      400,
    );

    // Another project's credentials on its own path do not reach this project's alert.
    const foreign = `/api/app/projects/${otherProject.id}/alerts/${alertId}`;
    await call(foreign, { auth: otherProject.auth }, 404);
    await call(`${foreign}/history`, { auth: otherProject.auth }, 404);
    await call(`${foreign}/test`, { method: 'POST', auth: otherProject.auth }, 404);
    await call(foreign, { method: 'DELETE', auth: otherProject.auth }, 404);

    await call(app(`/alerts/${alertId}`), { method: 'DELETE', auth: consumer }, 403);
    await call(app(`/alerts/${alertId}`), { method: 'DELETE', auth: analyst });
    await call(app(`/alerts/${alertId}`), { auth: consumer }, 404);
  });
});
