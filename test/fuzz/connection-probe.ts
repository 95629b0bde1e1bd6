import { connect } from 'node:net';

/**
 * Whether a keep-alive connection still serves the next request after the server refused a
 * request before reading all of its body (413 on an oversize body, 400 on a body that is not gzip). The fuzz traffic sends its
 * megabyte bodies with `Connection: close` so that such a stall cannot hold a client for a
 * minute; this probe checks the case itself, once per run, for each ingestion path and an app path.
 */
export interface ConnectionProbe {
  request: string;
  first: string;
  next: string;
  ms: number;
  stalled: boolean;
}

const BODY = Buffer.alloc(3_000_000, 'a');
const NOT_GZIP = Buffer.alloc(1_000_000, '[');
const CHUNKED = Buffer.concat([Buffer.from(`${BODY.length.toString(16)}\r\n`), BODY, Buffer.from('\r\n0\r\n\r\n')]);

function statusLine(text: string): string {
  return text.split('\r\n')[0] ?? '';
}

/** Sends the refused request, waits for its whole answer, then sends GET /healthz on the same connection. */
function probe(
  port: number,
  head: string,
  body: Buffer,
  waitMs: number,
): Promise<Omit<ConnectionProbe, 'request' | 'stalled'>> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let first = '';
    let sentAt = 0;
    const finish = (next: string) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ first, next, ms: sentAt ? Date.now() - sentAt : 0 });
    };
    let timer = setTimeout(() => finish('no first answer'), waitMs + 30_000);
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      if (!first) {
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
        if (text.length < end + 4 + length) return;
        first = statusLine(text);
        text = text.slice(end + 4 + length);
        sentAt = Date.now();
        clearTimeout(timer);
        timer = setTimeout(() => finish(`no answer within ${waitMs} ms`), waitMs);
        socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
        return;
      }
      finish(statusLine(text));
    });
    socket.on('close', () => finish(first ? 'connection closed' : 'closed before an answer'));
    socket.on('error', () => undefined);
    socket.write(head);
    socket.write(body);
  });
}

export async function probeConnectionsAfterRefusal(
  port: number,
  importBasic: string,
  waitMs = 5_000,
): Promise<ConnectionProbe[]> {
  const cases: [string, string][] = [];
  for (const path of ['/track', '/engage', '/groups', '/import?strict=1']) {
    const auth = path.startsWith('/import') ? `Authorization: ${importBasic}\r\n` : '';
    cases.push([
      `POST ${path}, chunked 3 MB`,
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
    ]);
    cases.push([
      `POST ${path}, Content-Length 3 MB`,
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n`,
    ]);
    cases.push([
      `POST ${path}, Content-Encoding gzip, Content-Length 1 MB that is not gzip`,
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${NOT_GZIP.length}\r\n\r\n`,
    ]);
  }
  const body = (head: string) => (head.includes('chunked') ? CHUNKED : head.includes('gzip') ? NOT_GZIP : BODY);
  const results = await Promise.all(cases.map(([, head]) => probe(port, head, body(head), waitMs)));
  return results.map((r, i) => ({
    request: cases[i][0],
    ...r,
    stalled: !/^HTTP\/1\.1 200/.test(r.next) && r.next !== 'connection closed',
  }));
}
