import { PlatformModule } from '@analytics/runtime';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';

/**
 * MANAGEMENT_PORT: /healthz, /readyz and /metrics on their own listener and not on the API port; the
 * readiness of a service that needs only Postgres (as management does) probes Postgres only.
 */
describe('the management port', () => {
  let environment: TestEnvironment;
  let service: TestApp;

  beforeAll(async () => {
    environment = await createTestEnvironment({ env: { MANAGEMENT_PORT: '0' } });
    service = await startTestApp(
      (config) => PlatformModule.forRoot(config, { clickhouse: true, postgres: true }, { postgres: true }),
      environment.config,
    );
  });
  afterAll(async () => {
    await service.close();
    await environment.dispose();
  });

  it('serves health, readiness and metrics, and nothing else', async () => {
    const management = service.managementUrl!;
    expect(management).not.toBe(service.baseUrl);
    expect((await fetch(`${management}/healthz`)).status).toBe(200);
    const ready = await fetch(`${management}/readyz`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { status: string; info: Record<string, unknown> };
    expect(body).toMatchObject({ status: 'ok', info: { postgres: { status: 'up' }, schema: { status: 'up' } } });
    expect(Object.keys(body.info).sort()).toEqual(['postgres', 'schema']); // ClickHouse is not this service's need
    const metrics = await fetch(`${management}/metrics`);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(await metrics.text()).toContain('analytics_engine_up{engine="postgres"} 1');
    expect((await fetch(`${management}/api/docs`)).status).toBe(404);
  });

  it('leaves them off the API port, which answers 404 there', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics'])
      expect({ path, status: (await fetch(`${service.baseUrl}${path}`)).status }).toEqual({ path, status: 404 });
    expect((await fetch(`${service.baseUrl}/api/docs`)).status).toBe(200);
  });

  it('scrapes the last readiness outcome without pinging an engine', async () => {
    const pingSeconds = async () =>
      /analytics_engine_ping_seconds\{engine="postgres"\} (\S+)/.exec(
        await (await fetch(`${service.managementUrl}/metrics`)).text(),
      )?.[1];
    await fetch(`${service.managementUrl}/readyz`);
    const first = await pingSeconds();
    expect(first).toBeDefined();
    // Scrapes alone: the figure is the last probe's, not a new ping's.
    expect([await pingSeconds(), await pingSeconds()]).toEqual([first, first]);
  });
});
