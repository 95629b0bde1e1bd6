import { projectScope } from '@analytics/tenancy';
import { ClickHouseClient } from '@analytics/clickhouse';
import { PROFILES_MIRROR_TABLE } from '@analytics/profile-store';
import { ProjectsService } from '@analytics/projects';
import { ServiceRootModule } from '@analytics/service-map';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';
import { parseProfileQuery } from '../src/profiles/profile-query-request';
import { ProfileQueryService } from '../src/profiles/profile-query.service';

const basic = (secret: string) => `Basic ${Buffer.from(`${secret}:`).toString('base64')}`;

/** Profiles written straight into the mirror, in bulk: enough for a `where` to take seconds. */
const BULK_PROFILES = 1_000_000;
/** A `where` that reads many properties of every profile (each test a JSON extraction). */
const SLOW_WHERE = Array.from({ length: 200 }, (_, i) => `properties["k${i}"] == "v"`).join(' or ');

/**
 * The profile query is part of the query API: it spends the same per-project budget as the reports
 * (one budget per project, as the real API's 60 an hour covers the query API as a whole), and runs
 * under the same ClickHouse time limit, cancelled when its client goes away.
 */
describe('the profile query under the query API limits', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  let organizationId: number;

  const project = async (name: string) => {
    const { project, secret } = await service.app.get(ProjectsService).createProject(organizationId, name);
    return { id: project.id, authorization: basic(secret) };
  };

  beforeAll(async () => {
    environment = await createTestEnvironment({
      env: {
        SERVICES: 'query',
        QUERY_LIMIT_PER_HOUR: '3',
        QUERY_LIMIT_PER_SECOND: '1000',
        QUERY_MAX_EXECUTION_SECONDS: '1',
      },
    });
    service = await startTestApp((config) => ServiceRootModule.forRoot(config), environment.config);
    organizationId = (await service.app.get(ProjectsService).createOrganization('Limits')).id;
  });
  afterAll(async () => {
    await service?.close();
    await environment?.dispose();
  });

  it('spends the budget the other query endpoints spend: 429 with Retry-After past it, for both, per project', async () => {
    const { authorization } = await project('Budget');
    const get = async (path: string, credentials = authorization) => {
      const response = await fetch(`${service.baseUrl}${path}`, { headers: { Authorization: credentials } });
      return {
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        body: (await response.json()) as Record<string, unknown>,
      };
    };
    expect((await get('/api/query/events/names?type=general')).status).toBe(200);
    expect((await get('/api/query/engage')).status).toBe(200);
    expect((await get('/api/2.0/engage')).status).toBe(200);
    const refused = await get('/api/query/engage');
    expect(refused).toEqual({
      status: 429,
      retryAfter: expect.stringMatching(/^[1-9]\d*$/),
      body: { request: '/api/query/engage', error: 'Query rate limit exceeded: too many queries this hour' },
    });
    expect((await get('/api/query/events/names?type=general')).status).toBe(429);
    expect((await get('/api/query/engage', (await project('Other')).authorization)).status).toBe(200);
  });

  describe('on a large project', () => {
    let projectId: number;
    let projectAuthorization: string;

    beforeAll(async () => {
      const large = await project('Large');
      projectId = large.id;
      projectAuthorization = large.authorization;
      await service.app.get(ClickHouseClient).command({
        query:
          `INSERT INTO ${PROFILES_MIRROR_TABLE} (project_id, group_key, profile_id, properties, version, is_deleted, created_at, updated_at) ` +
          "SELECT {project:UInt32}, '', concat('user-', toString(number)), concat('{\"n\":', toString(number), ',\"plan\":\"free\"}'), 1, 0, now64(3), now64(3) " +
          'FROM numbers({rows:UInt64})',
        query_params: { project: projectId, rows: BULK_PROFILES },
        // This statement is ours, not a query: no time limit.
        clickhouse_settings: { max_execution_time: 0 },
      });
    });

    it('stops a query at QUERY_MAX_EXECUTION_SECONDS', async () => {
      const profiles = service.app.get(ProfileQueryService);
      await expect(
        profiles.query(projectScope(projectId), parseProfileQuery({ where: SLOW_WHERE }, Date.now())),
      ).rejects.toThrow(/Timeout exceeded/);
    });

    it('answers a query past its time limit with 400 in the query shape, never 500', async () => {
      const response = await fetch(`${service.baseUrl}/api/query/engage?project_id=${projectId}`, {
        method: 'POST',
        headers: { Authorization: projectAuthorization, 'Content-Type': 'application/json' },
        body: JSON.stringify({ where: SLOW_WHERE }),
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: expect.stringContaining('time limit') });
    });

    it('stops a query whose client went away', async () => {
      const profiles = service.app.get(ProfileQueryService);
      await expect(
        profiles.query(
          projectScope(projectId),
          parseProfileQuery({ where: SLOW_WHERE }, Date.now()),
          AbortSignal.abort(),
        ),
      ).rejects.toThrow(/abort/i);
    });
  });
});
