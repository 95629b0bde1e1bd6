import { ClickHouseClient } from '@analytics/clickhouse';
import { ProjectsService } from '@analytics/projects';
import { createTestEnvironment, eventually, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';
import { once } from 'node:events';
import { get, IncomingMessage } from 'node:http';
import { ingestAndExport, runningExportQueries } from './export-test-app';

/** Issue 34: a client that asked for an export and read nothing held it, and its query, open without end. */
describe('an export whose client stops reading', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  let auth: string;
  const day = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  const query = `from_date=${day}&to_date=${day}&event=${encodeURIComponent('["Large"]')}`;
  const exportRaw = () => fetch(`${service.baseUrl}/api/2.0/export?${query}`, { headers: { Authorization: auth } });
  const running = () => runningExportQueries(service);

  beforeAll(async () => {
    environment = await createTestEnvironment({
      env: {
        HTTP_WRITE_STALL_TIMEOUT_MS: '1000',
        EXPORT_LIMIT_PER_SECOND: '1000',
        EXPORT_LIMIT_PER_HOUR: '1000',
        EXPORT_LIMIT_CONCURRENT: '1',
      },
    });
    service = await startTestApp(ingestAndExport, environment.config);
    const projects = service.app.get(ProjectsService);
    const { project, secret } = await projects.createProject((await projects.createOrganization('Stalled')).id, 'Main');
    auth = `Basic ${Buffer.from(`${secret}:`).toString('base64')}`;
    // ~23 MB of NDJSON: far more than the socket buffers between the server and a client that reads nothing.
    const item = (event: number, list: number, index: number) => `${event}-${list}-${index}-`.padEnd(250, 'abcdefghij');
    const time = Date.parse(`${day}T09:00:00Z`) / 1000;
    const large = Array.from({ length: 120 }, (_, n) => ({
      event: 'Large',
      properties: {
        time: time + n,
        distinct_id: `big-${n % 7}`,
        $insert_id: `large-${n}`,
        ...Object.fromEntries(
          ['a', 'b', 'c'].map((key, list) => [key, Array.from({ length: 250 }, (_, i) => item(n, list, i))]),
        ),
      },
    }));
    for (let i = 0; i < large.length; i += 8) {
      const sent = await fetch(`${service.baseUrl}/import`, {
        method: 'POST',
        body: JSON.stringify(large.slice(i, i + 8)),
        headers: { Authorization: auth, 'Content-Type': 'application/json' },
      });
      expect(sent.status).toBe(200);
    }
    const stored = async () =>
      (
        await (
          await service.app.get(ClickHouseClient).query({
            query: `SELECT count() AS n FROM events WHERE project_id = ${project.id} AND event = 'Large'`,
            format: 'JSONEachRow',
          })
        ).json<{ n: number }>()
      )[0].n;
    await eventually(async () => expect(await stored()).toBeGreaterThanOrEqual(large.length), {
      timeoutMs: 90_000,
      intervalMs: 500,
    });
  }, 180_000);
  afterAll(async () => {
    await service?.close();
    await environment?.dispose();
  });

  it('is closed after HTTP_WRITE_STALL_TIMEOUT_MS, its query cancelled and its concurrency slot freed', async () => {
    // Node's http client, paused after the first bytes, stops reading its socket (fetch would keep buffering the body).
    const request = get(`${service.baseUrl}/api/2.0/export?${query}`, { headers: { Authorization: auth } });
    const response = await new Promise<IncomingMessage>((answered, failed) =>
      request.once('response', answered).once('error', failed),
    );
    expect(response.statusCode).toBe(200);
    await once(response, 'data');
    response.pause();
    const ended = new Promise<string>((settled) => {
      response.once('end', () => settled('complete'));
      response.once('aborted', () => settled('cut by the server'));
      response.once('error', () => settled('cut by the server'));
    });
    // From here on nothing is read: the server's buffers fill, and after the stall timeout it gives up.
    await eventually(async () => expect(await running()).toBe(0), { timeoutMs: 30_000, intervalMs: 250 });
    const next = await eventually(async () => {
      const again = await fetch(`${service.baseUrl}/api/2.0/export?${query}&limit=1`, {
        headers: { Authorization: auth },
      });
      expect(again.status).toBe(200);
      return again.text();
    });
    expect(next.trimEnd().split('\n')).toHaveLength(1);
    // What the client had buffered ends cut, not as a complete body.
    response.resume();
    expect(await ended).toBe('cut by the server');
  });

  it('frees its query and slot when the client hangs up mid-export, and serves the next export', async () => {
    const request = get(`${service.baseUrl}/api/2.0/export?${query}`, { headers: { Authorization: auth } });
    request.on('error', () => undefined);
    const response = await new Promise<IncomingMessage>((answered, failed) =>
      request.once('response', answered).once('error', failed),
    );
    expect(response.statusCode).toBe(200);
    await once(response, 'data');
    // Hung up while the server is still writing (response-body.spec proves the cut is not an unhandled rejection).
    request.destroy();
    await eventually(async () => expect(await running()).toBe(0), { timeoutMs: 30_000, intervalMs: 250 });
    const next = await eventually(async () => {
      const again = await fetch(`${service.baseUrl}/api/2.0/export?${query}&limit=1`, {
        headers: { Authorization: auth },
      });
      expect(again.status).toBe(200);
      return again.text();
    });
    expect(next.trimEnd().split('\n')).toHaveLength(1);
  });
});
