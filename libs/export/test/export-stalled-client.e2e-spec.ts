import { createTestEnvironment, eventually, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';
import { once } from 'node:events';
import { get, IncomingMessage } from 'node:http';
import { importLargeExport, ingestAndExport, LARGE_EXPORT_EVENTS, runningExportQueries } from './export-test-app';

/** Issue 34: a client that asked for an export and read nothing held it, and its query, open without end. */
describe('an export whose client stops reading', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  let auth: string;
  const day = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  const query = `from_date=${day}&to_date=${day}&event=${encodeURIComponent(JSON.stringify([LARGE_EXPORT_EVENTS]))}`;
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
    auth = await importLargeExport(service, 'Stalled', day);
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
