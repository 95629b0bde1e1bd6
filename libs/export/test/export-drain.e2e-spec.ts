import { createTestEnvironment, eventually, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';
import { once } from 'node:events';
import { get, IncomingMessage } from 'node:http';
import { importLargeExport, ingestAndExport, LARGE_EXPORT_EVENTS } from './export-test-app';

/** Issue 37: a rollout or a scale-in cut running exports; now the service drains them. */
describe('an export service that stops', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  let auth: string;
  let closed = false;
  const day = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  const query = `from_date=${day}&to_date=${day}&event=${encodeURIComponent(JSON.stringify([LARGE_EXPORT_EVENTS]))}`;

  beforeAll(async () => {
    environment = await createTestEnvironment({
      env: { EXPORT_LIMIT_PER_SECOND: '1000', EXPORT_LIMIT_PER_HOUR: '1000' },
    });
    service = await startTestApp(ingestAndExport, environment.config);
    auth = await importLargeExport(service, 'Draining', day);
  }, 180_000);
  afterAll(async () => {
    if (!closed) await service?.close();
    await environment?.dispose();
  });

  it('refuses new exports with 503 and Retry-After, and lets the running one finish before it closes', async () => {
    // A client that reads the first bytes and then waits: the export is running when the shutdown starts.
    const request = get(`${service.baseUrl}/api/2.0/export?${query}`, { headers: { Authorization: auth } });
    const response = await new Promise<IncomingMessage>((answered, failed) =>
      request.once('response', answered).once('error', failed),
    );
    expect(response.statusCode).toBe(200);
    let body = '';
    response.setEncoding('utf8');
    body += (await once(response, 'data'))[0] as string;
    response.pause();
    const ended = new Promise<string>((settled) => {
      response.once('end', () => settled('complete'));
      response.once('aborted', () => settled('cut by the server'));
      response.once('error', () => settled('cut by the server'));
    });

    let stopped = false;
    closed = true;
    const closing = service.app.close().then(() => (stopped = true)); // what SIGTERM runs (closeOnSignals)

    const refused = await eventually(async () => {
      const again = await fetch(`${service.baseUrl}/api/2.0/export?${query}&limit=1`, {
        headers: { Authorization: auth },
      });
      expect(again.status).toBe(503);
      return again;
    });
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toMatchObject({
      error: 'this server is shutting down; retry the export, another server will answer',
    });
    expect(stopped).toBe(false); // still waiting for the running export

    response.on('data', (chunk: string) => (body += chunk));
    response.resume();
    expect(await ended).toBe('complete');
    await closing;
    expect(body.trimEnd().split('\n')).toHaveLength(120);
  });
});
