import { loadConfig } from '@analytics/config';
import { PlatformModule } from '@analytics/runtime';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';

/** A line of the Prometheus text format: a HELP/TYPE comment or `name{labels} value`. */
const PROMETHEUS_LINE =
  /^(# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .*|[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*",?)*\})? (-?[0-9.e+-]+|NaN|[+-]Inf))$/;

describe('observability endpoints', () => {
  let environment: TestEnvironment;
  let service: TestApp;

  beforeAll(async () => {
    environment = await createTestEnvironment();
    service = await startTestApp(
      (config) => PlatformModule.forRoot(config, { clickhouse: true, postgres: true }),
      environment.config,
    );
  });
  afterAll(async () => {
    await service.close();
    await environment.dispose();
  });

  it('answers /readyz with each engine up', async () => {
    const response = await fetch(`${service.baseUrl}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: 'ok',
      info: { clickhouse: { status: 'up' }, postgres: { status: 'up' } },
    });
  });

  it('serves valid Prometheus text with HTTP and engine metrics', async () => {
    await fetch(`${service.baseUrl}/healthz`);
    await fetch(`${service.baseUrl}/readyz`); // the engine gauges show the last readiness probe
    await fetch(`${service.baseUrl}/no/such/path/${Date.now()}`);
    const response = await fetch(`${service.baseUrl}/metrics`);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    const invalid = text.split('\n').filter((line) => line !== '' && !PROMETHEUS_LINE.test(line));
    expect(invalid).toEqual([]);
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} \d+/);
    // Unknown paths are one series, whatever they are: never a label per path, nor the catch-all's pattern.
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="unmatched",status="404"\} \d+/);
    expect(text).not.toMatch(/route="[^"]*\*/);
    expect(text).toContain('analytics_engine_up{engine="clickhouse"} 1');
    expect(text).toContain('analytics_engine_up{engine="postgres"} 1');
    expect(text).toContain('process_resident_memory_bytes');
  });

  it('echoes a sane request id and makes one otherwise', async () => {
    const given = await fetch(`${service.baseUrl}/healthz`, { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const made = await fetch(`${service.baseUrl}/healthz`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('publishes the OpenAPI document and its page', async () => {
    expect((await fetch(`${service.baseUrl}/api/docs`)).status).toBe(200);
    const document = (await (await fetch(`${service.baseUrl}/api/docs/openapi.json`)).json()) as { openapi: string };
    expect(document.openapi).toMatch(/^3\./);
  });
});

describe('readiness with an unreachable engine', () => {
  it('answers 503 naming the engine while /healthz stays 200', async () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      MIGRATE_ON_START: 'false',
      LOG_LEVEL: 'silent',
    });
    const service = await startTestApp((c) => PlatformModule.forRoot(c, { postgres: true }), config);
    try {
      const ready = await fetch(`${service.baseUrl}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ status: 'error', error: { postgres: { status: 'down' } } });
      expect((await fetch(`${service.baseUrl}/healthz`)).status).toBe(200);
    } finally {
      await service.close();
    }
  });
});
