import { ClickHouseClient } from '@analytics/clickhouse';
import { EVENTS_TABLE } from '@analytics/event-store';
import { PROFILES_MIRROR_TABLE } from '@analytics/profile-store';
import { ProjectsService } from '@analytics/projects';
import { ServiceRootModule } from '@analytics/service-map';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';

const basic = (secret: string) => `Basic ${Buffer.from(`${secret}:`).toString('base64')}`;

/**
 * `user["…"]` through HTTP: insights-style segmentation broken down and filtered by the current
 * profile of each event's person; a person without a profile has no segment; the reports that join
 * no profiles refuse it with a 400 naming why.
 */
describe('profile properties in event reports, through HTTP', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  let projectId: number;
  let authorization: string;

  beforeAll(async () => {
    environment = await createTestEnvironment({ env: { SERVICES: 'query', QUERY_LIMIT_PER_SECOND: '1000' } });
    service = await startTestApp((config) => ServiceRootModule.forRoot(config), environment.config);
    const projects = service.app.get(ProjectsService);
    const { project, secret } = await projects.createProject(
      (await projects.createOrganization('Profiles')).id,
      'Shop',
    );
    projectId = project.id;
    authorization = basic(secret);
    const clickhouse = service.app.get(ClickHouseClient);
    // ann and bob bought; cat bought twice and has no profile; bob's profile changed plan (version 2 wins).
    const events = [
      ['ann', '2024-03-04 10:00:00'],
      ['bob', '2024-03-04 11:00:00'],
      ['cat', '2024-03-04 12:00:00'],
      ['cat', '2024-03-05 12:00:00'],
    ].map(([id, time], i) => ({
      project_id: projectId,
      event: 'Purchased',
      time,
      distinct_id: id,
      insert_id: `e${i}`,
      properties: '{}',
      processed_at: time,
    }));
    await clickhouse.insert({ table: EVENTS_TABLE, values: events, format: 'JSONEachRow' });
    const profile = (id: string, properties: object, version: number) => ({
      project_id: projectId,
      group_key: '',
      profile_id: id,
      properties: JSON.stringify(properties),
      version,
      is_deleted: 0,
      created_at: '2024-03-01 00:00:00',
      updated_at: '2024-03-01 00:00:00',
    });
    await clickhouse.insert({
      table: PROFILES_MIRROR_TABLE,
      values: [
        profile('ann', { plan: 'pro', seats: 5 }, 1),
        profile('bob', { plan: 'pro', seats: 1 }, 1),
        profile('bob', { plan: 'free', seats: 1 }, 2),
      ],
      format: 'JSONEachRow',
    });
  });
  afterAll(async () => {
    await service?.close();
    await environment?.dispose();
  });

  const get = async (path: string) => {
    const response = await fetch(`${service.baseUrl}${path}`, { headers: { Authorization: authorization } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const range = 'from_date=2024-03-04&to_date=2024-03-05';

  it('breaks events down by the current plan of their person', async () => {
    const on = encodeURIComponent('user["plan"]');
    expect(await get(`/api/query/segmentation?project_id=${projectId}&event=Purchased&${range}&on=${on}`)).toEqual({
      status: 200,
      body: expect.objectContaining({
        data: {
          series: ['2024-03-04', '2024-03-05'],
          values: { pro: { '2024-03-04': 1, '2024-03-05': 0 }, free: { '2024-03-04': 1, '2024-03-05': 0 } },
        },
      }),
    });
  });

  it('filters by a profile property', async () => {
    const where = encodeURIComponent('user["seats"] > 2');
    expect(
      await get(`/api/query/segmentation?project_id=${projectId}&event=Purchased&${range}&where=${where}`),
    ).toEqual({
      status: 200,
      body: expect.objectContaining({
        data: { series: ['2024-03-04', '2024-03-05'], values: { Purchased: { '2024-03-04': 1, '2024-03-05': 0 } } },
      }),
    });
  });

  it('refuses user["…"] where the report joins no profiles, with a 400', async () => {
    const where = encodeURIComponent('user["plan"] == "pro"');
    const flows = await get(`/api/query/flows?project_id=${projectId}&event=Purchased&${range}&where=${where}`);
    expect(flows).toEqual({
      status: 400,
      body: expect.objectContaining({ error: expect.stringContaining('no user profile is joined in this query') }),
    });
  });
});
