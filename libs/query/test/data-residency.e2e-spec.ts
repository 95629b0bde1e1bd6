import { loadConfig } from '@analytics/config';
import { DataRegion, ProjectsModule, ProjectsService } from '@analytics/projects';
import { PlatformModule } from '@analytics/runtime';
import { engineNeeds } from '@analytics/service-map';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';
import { DynamicModule } from '@nestjs/common';
import { request } from 'node:http';
import { ProfilesQueryModule, QueryModule } from '../src';

const HOSTS = { US: 'api.example.test', EU: 'eu.example.test', IN: 'in.example.test' } as const;
const REGIONS: DataRegion[] = ['US', 'EU', 'IN'];

/** One request with the given Host header, as a client of that public host sends it. */
function send(
  baseUrl: string,
  host: string,
  method: string,
  path: string,
  authorization: string,
  body?: string,
): Promise<{ status: number; body: unknown }> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host, authorization };
    if (body !== undefined)
      Object.assign(headers, {
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': String(Buffer.byteLength(body)),
      });
    const req = request(
      { hostname: url.hostname, port: url.port, method, path: url.pathname + url.search, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('data residency: each regional query host answers only for its region’s projects', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  const projects = new Map<DataRegion, { id: number; basic: string }>();

  beforeAll(async () => {
    environment = await createTestEnvironment();
    const config = loadConfig({
      ...environment.env,
      QUERY_REGION_HOSTS: `${HOSTS.US}=US,${HOSTS.EU}=EU,${HOSTS.IN}=IN`,
      QUERY_LIMIT_PER_SECOND: '100000',
      QUERY_LIMIT_PER_HOUR: '1000000',
    });
    const app = (): DynamicModule => ({
      module: class DataResidencyTestModule {},
      imports: [
        PlatformModule.forRoot(config, engineNeeds(config, ['query'])),
        ProjectsModule,
        QueryModule,
        ProfilesQueryModule,
      ],
    });
    service = await startTestApp(app, config);
    const store = service.app.get(ProjectsService);
    const organization = await store.createOrganization('Regions');
    for (const region of REGIONS) {
      const { project, secret } = await store.createProject(organization.id, region, {}, region);
      projects.set(region, { id: project.id, basic: `Basic ${Buffer.from(`${secret}:`).toString('base64')}` });
    }
  });
  afterAll(async () => {
    await service?.close();
    await environment?.dispose();
  });

  const calls = [
    ['GET /api/query/events/names', 'GET', '/api/query/events/names'],
    ['POST /api/2.0/cohorts/list', 'POST', '/api/2.0/cohorts/list'],
    ['POST /api/query/engage', 'POST', '/api/query/engage'],
  ] as const;

  it.each(calls)('%s: 200 on the project’s own host, 403 naming that host on the others', async (_, method, path) => {
    for (const region of REGIONS) {
      const project = projects.get(region)!;
      for (const hostRegion of REGIONS) {
        const host = HOSTS[hostRegion];
        const answer = await send(
          service.baseUrl,
          host,
          method,
          `${path}?project_id=${project.id}`,
          project.basic,
          method === 'POST' ? '' : undefined,
        );
        if (hostRegion === region) {
          expect({ host, region, status: answer.status }).toEqual({ host, region, status: 200 });
        } else {
          expect({ host, region, ...answer }).toEqual({
            host,
            region,
            status: 403,
            body: {
              request: `${path}?project_id=${project.id}`,
              error: `project ${project.id} keeps its data in the ${region} region: send this query to ${HOSTS[region]} (${host} serves ${hostRegion} projects only)`,
            },
          });
        }
      }
    }
  });

  it('a host the setting does not name (an internal address) serves every region; the host name is matched case-insensitively, port ignored', async () => {
    for (const region of REGIONS) {
      const project = projects.get(region)!;
      expect(
        (
          await send(
            service.baseUrl,
            '127.0.0.1',
            'GET',
            `/api/query/events/names?project_id=${project.id}`,
            project.basic,
          )
        ).status,
      ).toBe(200);
    }
    const eu = projects.get('EU')!;
    expect(
      (
        await send(
          service.baseUrl,
          'EU.Example.Test:8443',
          'GET',
          `/api/query/events/names?project_id=${eu.id}`,
          eu.basic,
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await send(
          service.baseUrl,
          'API.example.test:8443',
          'GET',
          `/api/query/events/names?project_id=${eu.id}`,
          eu.basic,
        )
      ).status,
    ).toBe(403);
  });

  it('checks credentials before the region: a wrong secret is 401 on every host, and says nothing of the project', async () => {
    const eu = projects.get('EU')!;
    const wrong = `Basic ${Buffer.from('not-the-secret:').toString('base64')}`;
    for (const host of Object.values(HOSTS)) {
      const answer = await send(service.baseUrl, host, 'GET', `/api/query/events/names?project_id=${eu.id}`, wrong);
      expect(answer.status).toBe(401);
      expect(JSON.stringify(answer.body)).not.toContain('region');
    }
  });
});
