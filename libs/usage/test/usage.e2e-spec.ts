import { ServiceAccountsService } from '@analytics/accounts';
import { ProjectsService } from '@analytics/projects';
import { ServiceRootModule } from '@analytics/service-map';
import { createTestEnvironment, eventually, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';

const basic = (username: string, password = '') => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
const at = (iso: string) => Date.parse(iso);

interface Usage {
  status: string;
  error?: string;
  results?: {
    events: {
      total: number;
      oldest: string | null;
      newest: string | null;
      per_day: { date: string; events: number }[];
    };
    bytes_on_disk: number;
    profiles: number;
    groups: number;
    data_retention_days: number | null;
  };
}

/** GET /api/app/projects/{id}/usage and the usage gauges, over the embedded engines. */
describe('project usage', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  let project: { id: number; token: string; secret: string };
  let other: { id: number; token: string; secret: string };
  let consumer: string;

  const send = async (path: string, init: RequestInit) => {
    const response = await fetch(`${service.baseUrl}${path}`, init);
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${path}: ${response.status} ${text}`);
    return text;
  };
  const importEvents = (target: typeof project, events: [string, string, string][]) =>
    send('/import?strict=1', {
      method: 'POST',
      headers: { Authorization: basic(target.secret), 'Content-Type': 'application/json' },
      body: JSON.stringify(
        events.map(([event, time, insertId]) => ({
          event,
          properties: { time: at(time), distinct_id: `user-${insertId}`, $insert_id: insertId },
        })),
      ),
    });
  const usage = async (projectId: number, query = '', authorization = basic(project.secret)) => {
    const response = await fetch(`${service.baseUrl}/api/app/projects/${projectId}/usage${query}`, {
      headers: { Authorization: authorization },
    });
    return { status: response.status, body: (await response.json()) as Usage };
  };

  beforeAll(async () => {
    environment = await createTestEnvironment({
      // The route spends the query budget; these cases call it many times a second.
      env: { USAGE_METRICS: 'true', QUERY_LIMIT_PER_SECOND: '100', QUERY_LIMIT_PER_HOUR: '100000' },
    });
    service = await startTestApp((config) => ServiceRootModule.forRoot(config), environment.config);
    const projects = service.app.get(ProjectsService);
    const organization = await projects.createOrganization('Usage');
    const created = await projects.createProject(organization.id, 'Used');
    project = { ...created.project, secret: created.secret };
    const second = await projects.createProject(organization.id, 'Other');
    other = { ...second.project, secret: second.secret };
    const { view, secret } = await service.app.get(ServiceAccountsService).create(organization.id, null, {
      username: 'reader',
      role: 'consumer',
      projects: [{ id: project.id, role: 'consumer' }],
    });
    consumer = basic(view.account.username, secret);

    await importEvents(project, [
      ['Viewed', '2026-03-01T10:00:00.000Z', 'a'],
      ['Viewed', '2026-03-01T23:59:59.999Z', 'b'],
      ['Bought', '2026-03-01T12:00:00.000Z', 'c'],
      ['Viewed', '2026-03-03T00:00:00.000Z', 'd'],
    ]);
    // The same event again (a client's retry): stored twice until a merge, counted once.
    await importEvents(project, [['Viewed', '2026-03-01T10:00:00.000Z', 'a']]);
    await importEvents(other, [
      ['Viewed', '2026-02-01T00:00:00.000Z', 'x'],
      ['Viewed', '2026-03-01T10:00:00.000Z', 'y'],
    ]);
    const owner = basic(project.secret);
    await send(`/api/app/projects/${project.id}/group-keys`, {
      method: 'POST',
      headers: { Authorization: owner, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'company' }),
    });
    const form = (data: unknown) => ({
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ data: JSON.stringify(data) }).toString(),
    });
    const engaged = await send(
      '/engage',
      form(['alice', 'bob'].map((id) => ({ $token: project.token, $distinct_id: id, $set: { plan: 'pro' } }))),
    );
    const grouped = await send(
      '/groups',
      form([{ $token: project.token, $group_key: 'company', $group_id: 'acme', $set: { size: 10 } }]),
    );
    expect([engaged, grouped]).toEqual(['1', '1']);
  });
  afterAll(async () => {
    await service?.close();
    await environment?.dispose();
  });

  it("counts the project's stored events once each, by day, with the oldest and newest, and its profiles", async () => {
    const answer = await eventually(async () => {
      const read = await usage(project.id, '?from_date=2026-02-01&to_date=2026-03-31');
      expect(read.body.results?.profiles).toBe(2);
      return read;
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'ok',
      results: {
        events: {
          total: 4,
          oldest: '2026-03-01T10:00:00.000Z',
          newest: '2026-03-03T00:00:00.000Z',
          per_day: [
            { date: '2026-03-01', events: 3 },
            { date: '2026-03-03', events: 1 },
          ],
        },
        bytes_on_disk: expect.any(Number),
        profiles: 2,
        groups: 1,
        data_retention_days: null,
      },
    });
    expect(answer.body.results!.bytes_on_disk).toBeGreaterThan(0);
  });

  it('lists only the days of the range in per_day; the totals stay whole', async () => {
    const { body } = await usage(project.id, '?from_date=2026-03-02&to_date=2026-03-02');
    expect(body.results?.events).toMatchObject({ total: 4, per_day: [] });
    const { body: fromOnly } = await usage(project.id, '?from_date=2026-03-02');
    expect(fromOnly.results?.events.per_day).toEqual([{ date: '2026-03-03', events: 1 }]);
  });

  it('shows an empty project as zeros and nulls', async () => {
    const projects = service.app.get(ProjectsService);
    const empty = await projects.createProject((await projects.findById(project.id))!.organizationId, 'Empty');
    const { body } = await usage(empty.project.id, '', basic(empty.secret));
    expect(body.results).toEqual({
      events: { total: 0, oldest: null, newest: null, per_day: [] },
      bytes_on_disk: 0,
      profiles: 0,
      groups: 0,
      data_retention_days: null,
    });
  });

  it.each([
    ['?from_date=2026-02-30', 'from_date must be a date as yyyy-mm-dd, got "2026-02-30"'],
    ['?to_date=yesterday', 'to_date must be a date as yyyy-mm-dd, got "yesterday"'],
    ['?from_date=2026-03-02&to_date=2026-03-01', 'from_date 2026-03-02 is after to_date 2026-03-01'],
    [
      '?from_date=2025-01-01&to_date=2026-01-02',
      'from_date to to_date spans 367 days; at most 366 are listed per request',
    ],
    ['?from_date=2026-01-01&from_date=2026-01-02', 'from_date must be given once'],
  ])('refuses %s with 400 and why', async (query, error) => {
    expect(await usage(project.id, query)).toEqual({ status: 400, body: { status: 'error', error } });
  });

  it('lists up to 366 days', async () => {
    expect((await usage(project.id, '?from_date=2025-01-01&to_date=2026-01-01')).status).toBe(200);
  });

  it("lets a consumer read its project's usage and refuses another project", async () => {
    expect((await usage(project.id, '', consumer)).body.results?.events.total).toBe(4);
    expect((await usage(other.id, '', consumer)).status).toBe(403);
  });

  it('with a retention, counts only the events it keeps, as reports do, and shows the setting', async () => {
    const projects = service.app.get(ProjectsService);
    const created = await projects.createProject((await projects.findById(project.id))!.organizationId, 'Kept');
    const kept = { ...created.project, secret: created.secret };
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    const recent = daysAgo(1);
    await importEvents(kept, [
      ['Viewed', recent, 'recent'],
      ['Viewed', daysAgo(40), 'old'],
    ]);
    const patched = await fetch(`${service.baseUrl}/api/app/projects/${kept.id}`, {
      method: 'PATCH',
      headers: { Authorization: basic(kept.secret), 'Content-Type': 'application/json' },
      body: JSON.stringify({ data_retention_days: 30 }),
    });
    expect(patched.status).toBe(200);
    const { body } = await usage(kept.id, '', basic(kept.secret));
    expect(body.results).toMatchObject({
      events: { total: 1, oldest: recent, newest: recent, per_day: [{ date: recent.slice(0, 10), events: 1 }] },
      data_retention_days: 30,
    });
  });

  it('exports the per-project gauges on /metrics', async () => {
    const metrics = await (await fetch(`${service.baseUrl}/metrics`)).text();
    const value = (name: string, projectId: number) =>
      Number(new RegExp(`^${name}\\{project_id="${projectId}"\\} (\\S+)$`, 'm').exec(metrics)?.[1]);
    // Stored rows: the retried copy counts until a merge collapses it.
    expect(value('analytics_project_events_stored', project.id)).toBeGreaterThanOrEqual(4);
    expect(value('analytics_project_events_stored', other.id)).toBe(2);
    expect(value('analytics_project_profiles', project.id)).toBe(2);
    expect(value('analytics_project_groups', project.id)).toBe(1);
    expect(value('analytics_project_oldest_event_timestamp_seconds', other.id)).toBe(at('2026-02-01T00:00:00Z') / 1000);
    expect(value('analytics_project_bytes_on_disk', project.id)).toBeGreaterThan(0);
    expect(metrics).toMatch(/^analytics_usage_snapshot_timestamp_seconds [1-9]/m);
  });
});
