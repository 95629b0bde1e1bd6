import { ClickHouseClient } from '@analytics/clickhouse';
import { EVENTS_TABLE } from '@analytics/event-store';
import { ProjectsService } from '@analytics/projects';
import { ServiceRootModule } from '@analytics/service-map';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';

const basic = (secret: string) => `Basic ${Buffer.from(`${secret}:`).toString('base64')}`;

/**
 * Every report runs under QUERY_MAX_MEMORY_MB (ClickHouse's max_memory_usage): a report that would
 * pass it is stopped by the engine and answered with a 400 in the query API's shape, never a 500 or
 * an engine that runs out of memory; the next report is served as usual.
 */
describe('the query API under QUERY_MAX_MEMORY_MB', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  let projectId: number;
  let authorization: string;

  beforeAll(async () => {
    environment = await createTestEnvironment({
      env: { SERVICES: 'query', QUERY_LIMIT_PER_SECOND: '1000', QUERY_MAX_MEMORY_MB: '16' },
    });
    service = await startTestApp((config) => ServiceRootModule.forRoot(config), environment.config);
    const projects = service.app.get(ProjectsService);
    const { project, secret } = await projects.createProject((await projects.createOrganization('Memory')).id, 'Big');
    projectId = project.id;
    authorization = basic(secret);
    // 1M events of 200k people, made inside ClickHouse: a flow over them needs far more than 16 MB.
    await service.app.get(ClickHouseClient).command({
      query: `INSERT INTO ${EVENTS_TABLE} (project_id, event, time, distinct_id, insert_id, properties, processed_at)
        SELECT {project:UInt32}, ['A', 'B', 'C', 'D'][1 + number % 4], toDateTime64('2024-03-04 00:00:00', 3, 'UTC') + toIntervalMillisecond(number * 100),
          concat('p', toString(number % 200000)), toString(number), '{}', now64(3)
        FROM numbers(1000000)`,
      query_params: { project: projectId },
      clickhouse_settings: { max_execution_time: 0 },
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

  it('answers a report past the cap with 400 naming the setting, then serves the next report', async () => {
    const flows = `/api/query/flows?project_id=${projectId}&event=A&from_date=2024-03-04&to_date=2024-03-05&steps=5`;
    expect(await get(flows)).toEqual({
      status: 400,
      body: {
        request: expect.stringContaining('/api/query/flows'),
        error: 'the query needs more memory than its limit (QUERY_MAX_MEMORY_MB): narrow the date range or the filters',
      },
    });
    const counts = await get(
      `/api/query/segmentation?project_id=${projectId}&event=A&from_date=2024-03-04&to_date=2024-03-05&unit=day`,
    );
    expect(counts).toMatchObject({
      status: 200,
      body: { data: { values: { A: { '2024-03-04': 216000, '2024-03-05': 34000 } } } },
    });
  });
});
