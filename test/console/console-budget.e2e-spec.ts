import { ProjectsService } from '@analytics/projects';
import { CONSOLE_CLIENT_HEADER } from '@analytics/rate-limits';
import { ServiceRootModule } from '@analytics/service-map';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';

/**
 * The console's calls spend their own budget (CONSOLE_QUERY_LIMIT_*, CONSOLE_EXPORT_LIMIT_*), so a person
 * with the console open never meets the public API's per-project limits meant for scripts, and a
 * script never meets the console's. Both are bounded: a client that says it is the console meets the
 * console's limit in the same words.
 */
describe("the console's own budget", () => {
  let environment: TestEnvironment;
  let service: TestApp;
  let authorization: string;
  const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    environment = await createTestEnvironment({
      env: {
        SERVICES: 'query,export',
        QUERY_LIMIT_PER_HOUR: '2',
        EXPORT_LIMIT_PER_HOUR: '2',
        CONSOLE_QUERY_LIMIT_PER_HOUR: '4',
        CONSOLE_EXPORT_LIMIT_PER_HOUR: '4',
      },
    });
    service = await startTestApp((config) => ServiceRootModule.forRoot(config), environment.config);
    const projects = service.app.get(ProjectsService);
    const { secret } = await projects.createProject((await projects.createOrganization('Budget')).id, 'Main');
    authorization = `Basic ${Buffer.from(`${secret}:`).toString('base64')}`;
  });
  afterAll(async () => {
    await service?.close();
    await environment?.dispose();
  });

  const statuses = async (path: string, times: number, fromConsole: boolean) => {
    const answers: number[] = [];
    for (let i = 0; i < times; i++) {
      const headers: Record<string, string> = { Authorization: authorization };
      if (fromConsole) headers[CONSOLE_CLIENT_HEADER] = '1';
      const response = await fetch(`${service.baseUrl}${path}`, { headers });
      await response.arrayBuffer();
      answers.push(response.status);
    }
    return answers;
  };

  it.each([
    ['the query API', '/api/query/events/names?type=general'],
    ['the raw export', `/api/2.0/export?from_date=${day}&to_date=${day}`],
  ])('keeps %s apart: the public budget spent, the console still answers until its own is', async (_, path) => {
    expect(await statuses(path, 3, false)).toEqual([200, 200, 429]);
    expect(await statuses(path, 5, true)).toEqual([200, 200, 200, 200, 429]);
    const refused = await fetch(`${service.baseUrl}${path}`, {
      headers: { Authorization: authorization, [CONSOLE_CLIENT_HEADER]: '1' },
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.text()).toContain('rate limit exceeded: too many queries this hour');
  });
});
