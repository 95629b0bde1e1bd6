import { ClickHouseClient } from '@analytics/clickhouse';
import { ProjectsService } from '@analytics/projects';
import { firstStart } from '@analytics/runtime';
import { ServiceRootModule } from '@analytics/service-map';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';
import { RetentionSweeper } from '../src/retention-sweeper';

const DAY = 86_400_000;
const owner = `Basic ${Buffer.from('retention-owner:retention-owner-secret-01').toString('base64')}`;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const month = (ms: number) => Number(day(ms).slice(0, 7).replace('-', ''));

/** A project's `data_retention_days` (docs/retention.md): readers stop at the line at once, the sweep frees the disk. */
describe('event retention', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  let organizationId: number;
  const now = Date.now();

  beforeAll(async () => {
    environment = await createTestEnvironment({
      env: {
        BOOTSTRAP_SERVICE_ACCOUNT_USERNAME: 'retention-owner',
        BOOTSTRAP_SERVICE_ACCOUNT_SECRET: 'retention-owner-secret-01',
      },
    });
    service = await startTestApp((config) => ServiceRootModule.forRoot(config), environment.config);
    // The first start's organization, project and owner, as `npm start` makes them.
    await firstStart(service.app, environment.config);
    organizationId = (await service.app.get(ProjectsService).firstOrganization())!.id;
  });
  afterAll(async () => {
    await service.close();
    await environment.dispose();
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${service.baseUrl}${path}`, {
      method,
      headers: { Authorization: owner, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, text: await response.text() };
  };
  const project = async (name: string) => {
    const { project: made, secret } = await service.app.get(ProjectsService).createProject(organizationId, name);
    return { id: made.id, auth: `Basic ${Buffer.from(`${secret}:`).toString('base64')}` };
  };
  const send = async (auth: string, events: [string, number][]) => {
    const body = events.map(([insertId, time]) => ({
      event: 'Viewed',
      properties: { distinct_id: `user-${insertId}`, time, $insert_id: insertId },
    }));
    const response = await fetch(`${service.baseUrl}/import?strict=1`, {
      method: 'POST',
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
  };
  const exported = async (projectId: number) => {
    const { status, text } = await call(
      'GET',
      `/api/2.0/export?project_id=${projectId}&from_date=${day(now - 500 * DAY)}&to_date=${day(now)}`,
    );
    expect(status).toBe(200);
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { properties: { $insert_id: string } }).properties.$insert_id)
      .sort();
  };
  const segmented = async (projectId: number) => {
    const { text } = await call(
      'GET',
      `/api/2.0/segmentation?project_id=${projectId}&event=Viewed&unit=month&from_date=${day(now - 500 * DAY)}&to_date=${day(now)}`,
    );
    const values = (JSON.parse(text) as { data: { values: { Viewed: Record<string, number> } } }).data.values.Viewed;
    return Object.values(values).reduce((sum, n) => sum + n, 0);
  };
  const stored = async (projectId: number) => {
    const result = await service.app.get(ClickHouseClient).query({
      query: 'SELECT count() AS n FROM events WHERE project_id = {p:UInt32}',
      query_params: { p: projectId },
      format: 'JSONEachRow',
    });
    return Number((await result.json<{ n: string }>())[0].n);
  };
  it('hides older events from every reader as soon as it is saved, and the sweep deletes only what expired', async () => {
    const kept = await project('Kept 30 days');
    const forever = await project('Kept for ever');
    const at = (days: number) => Math.floor((now - days * DAY) / 1000);
    await send(kept.auth, [
      ['recent', at(1)],
      ['forty', at(40)],
      ['two-hundred', at(200)],
      ['four-hundred', at(400)],
    ]);
    await send(forever.auth, [
      ['other-recent', at(1)],
      ['other-two-hundred', at(200)],
    ]);
    expect(await exported(kept.id)).toEqual(['forty', 'four-hundred', 'recent', 'two-hundred']);

    const saved = await call('PATCH', `/api/app/projects/${kept.id}`, { data_retention_days: 30 });
    expect(saved.status).toBe(200);
    expect(JSON.parse(saved.text)).toMatchObject({ results: { data_retention_days: 30 } });
    expect(JSON.parse((await call('GET', `/api/app/projects/${kept.id}/usage`)).text)).toMatchObject({
      results: { data_retention_days: 30 },
    });
    // The usage route reads the whole history: it spends the query budget, and a burst is refused in words.
    const burst = await Promise.all(
      Array.from({ length: 12 }, () => call('GET', `/api/app/projects/${forever.id}/usage`)),
    );
    expect(burst.map((answer) => answer.status)).toContain(429);
    expect(JSON.parse(burst.find((answer) => answer.status === 429)!.text)).toEqual({
      status: 'error',
      error: expect.stringMatching(/^Query rate limit exceeded/),
    });
    // The per-project gauges name projects on a page that asks no credentials: off unless USAGE_METRICS is set.
    expect(await (await fetch(`${service.baseUrl}/metrics`)).text()).not.toContain('analytics_project_events_stored');
    expect(await exported(kept.id)).toEqual(['recent']);
    expect(await segmented(kept.id)).toBe(1);
    expect(await exported(forever.id)).toEqual(['other-recent', 'other-two-hundred']);
    expect(await stored(kept.id)).toBe(4);

    // The month 400 days back holds only this project's expired events; the month 200 days back also
    // the other project's, which stay.
    const report = await service.app.get(RetentionSweeper).sweep();
    expect(report.rewritten).toEqual(expect.arrayContaining([month(now - 400 * DAY), month(now - 200 * DAY)]));
    expect(await stored(kept.id)).toBe(1);
    expect(await stored(forever.id)).toBe(2);
    expect(await exported(forever.id)).toEqual(['other-recent', 'other-two-hundred']);
    expect(await service.app.get(RetentionSweeper).sweep()).toEqual({ rewritten: [] });

    // Back to keeping for ever: nothing comes back (it is gone), and new old events stay.
    expect(
      JSON.parse((await call('PATCH', `/api/app/projects/${kept.id}`, { data_retention_days: null })).text),
    ).toMatchObject({ results: { data_retention_days: null } });
    await send(kept.auth, [['late-import', at(90)]]);
    expect(await exported(kept.id)).toEqual(['late-import', 'recent']);
  });

  it('refuses a retention that is not a whole number of days from 1 to 36,500, in the API error shape', async () => {
    const { id } = await project('Bad retention');
    for (const bad of [0, 36_501, 1.5, '30', -3]) {
      const answer = await call('PATCH', `/api/app/projects/${id}`, { data_retention_days: bad });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toEqual({
        status: 'error',
        error: expect.stringContaining('data_retention_days must be a whole number of days from 1 to 36500'),
      });
    }
    expect((await service.app.get(ProjectsService).findById(id))?.dataRetentionDays).toBeNull();
  });
});
