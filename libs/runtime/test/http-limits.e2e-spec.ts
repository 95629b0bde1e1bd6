import { loadConfig } from '@analytics/config';
import { startTestApp, TestApp, temporaryDirectory } from '@analytics/testing';
import { connect, Socket } from 'node:net';
import { join } from 'node:path';
import { PlatformModule } from '../src';

/** What a raw client saw: the bytes the server sent, and whether it closed the connection. */
function rawClient(port: number): { socket: Socket; received: () => string; closed: Promise<void> } {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, received: () => received, closed };
}

/**
 * The server's own limits, as a hostile client meets them: a slow-loris that trickles headers loses
 * its connection after HTTP_HEADERS_TIMEOUT_MS, and oversized headers get 431.
 */
describe('HTTP server limits', () => {
  let service: TestApp;
  let port: number;
  const dataDir = temporaryDirectory('http-limits');

  beforeAll(async () => {
    const config = loadConfig({
      DATA_DIR: join(dataDir.path, 'data'),
      LOG_LEVEL: 'silent',
      HTTP_HEADERS_TIMEOUT_MS: '1000',
      HTTP_MAX_HEADER_BYTES: '4096',
    });
    service = await startTestApp((c) => PlatformModule.forRoot(c, {}), config);
    port = Number(new URL(service.baseUrl).port);
  });
  afterAll(async () => {
    await service.close();
    dataDir.remove();
  });

  it('closes a connection whose headers trickle in slower than the headers timeout', async () => {
    const client = rawClient(port);
    client.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n');
    // One header byte every 100 ms: never idle, never done (a slow-loris).
    const trickle = setInterval(() => client.socket.writable && client.socket.write('X'), 100);
    // The 15 s wait is cleared once the race is over: left running, it held the jest worker's event loop for 15 s more.
    let wait: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      client.closed.then(() => 'closed'),
      new Promise((resolve) => (wait = setTimeout(() => resolve('still open'), 15_000))),
    ]);
    clearTimeout(wait);
    clearInterval(trickle);
    client.socket.destroy();
    expect(outcome).toBe('closed');
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('answers 431 to request headers above the limit, and serves normal ones', async () => {
    const big = await fetch(`${service.baseUrl}/healthz`, { headers: { 'X-Padding': 'x'.repeat(8_000) } }).catch(
      (error: Error) => error,
    );
    const status = big instanceof Error ? undefined : big.status;
    if (status === undefined) {
      // fetch may see the connection closed before reading the answer; the raw answer says 431.
      const client = rawClient(port);
      client.socket.write(`GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'x'.repeat(8_000)}\r\n\r\n`);
      await client.closed;
      expect(client.received()).toMatch(/^HTTP\/1\.1 431 /);
    } else {
      expect(status).toBe(431);
    }
    expect((await fetch(`${service.baseUrl}/healthz`, { headers: { 'X-Padding': 'x'.repeat(1_000) } })).status).toBe(
      200,
    );
  });
});
