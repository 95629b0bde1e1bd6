import fc from 'fast-check';
import type { RequestPlan } from './hostile-requests';

/**
 * Requests no HTTP client would send, written byte by byte: bad request lines, raw lone surrogates
 * (CESU-8) and NUL in the target, oversize headers, conflicting lengths, broken chunked encoding,
 * bodies shorter than announced. Node's parser should refuse most with 400/413/431 and never
 * reach the app; the rest reach it with whatever the parser let through.
 */
const TARGETS = [
  '/track',
  '/import',
  '/engage',
  '/groups',
  '/api/app/me',
  '/api/2.0/export',
  '/api/query/insights',
  '/healthz',
  '/api/app/projects/2/annotations',
];

const latin1 = (text: string) => Buffer.from(text, 'latin1');

const requestLine = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('GET', 'POST', 'FOO', 'get', 'G ET', 'TRACE', 'CONNECT', 'PROPFIND', 'M-SEARCH', ''),
      fc.constantFrom(...TARGETS),
    )
    .map(([m, t]) => `${m} ${t} HTTP/1.1`),
  fc.constantFrom(...TARGETS).map((t) => `GET ${t}?data=\xed\xa0\x80 HTTP/1.1`),
  fc.constantFrom(...TARGETS).map((t) => `GET ${t}\x00 HTTP/1.1`),
  fc.constantFrom(...TARGETS).map((t) => `GET ${t}?a=\x7f\xff HTTP/1.1`),
  fc.constantFrom(
    'GET http://127.0.0.1/api/app/me HTTP/1.1',
    'GET * HTTP/1.1',
    'GET track HTTP/1.1',
    'GET / HTTP/9.9',
    'GET / HTTP/1.1 extra',
    'GET /healthz',
    'GET //127.0.0.1/healthz HTTP/1.1',
    'OPTIONS * HTTP/1.1',
  ),
);

const headerLines = (auth: string) =>
  fc.oneof(
    fc.constant([`Host: 127.0.0.1`, `Authorization: ${auth}`]),
    fc.constant([`Authorization: ${auth}\x00`]),
    fc.constant(['Host: 127.0.0.1', 'Bad Header: x']),
    fc.constant(['Host: 127.0.0.1', 'NoColon']),
    fc.constant(['Host: 127.0.0.1', 'X-A: a', ' folded continuation']),
    fc.constant(['Host: 127.0.0.1', `Authorization: Basic \xed\xa0\x80`]),
    fc.integer({ min: 17_000, max: 80_000 }).map((n) => ['Host: 127.0.0.1', `X-Big: ${'a'.repeat(n)}`]),
    fc
      .integer({ min: 200, max: 2_000 })
      .map((n) => ['Host: 127.0.0.1', ...Array.from({ length: n }, (_, i) => `X-H${i}: v`)]),
    fc.constant(['Host: a', 'Host: b']),
  );

const bodyParts = fc.oneof(
  fc.constant({ headers: ['Content-Length: 5', 'Content-Length: 6'], body: '[null]' }),
  fc.constant({ headers: ['Content-Length: 6', 'Transfer-Encoding: chunked'], body: '0\r\n\r\n' }),
  fc.constant({ headers: ['Transfer-Encoding: chunked'], body: 'zz\r\nabc\r\n0\r\n\r\n' }),
  fc.constant({ headers: ['Transfer-Encoding: chunked'], body: 'ffffffffffffffff\r\nabc\r\n' }),
  fc.constant({ headers: ['Transfer-Encoding: chunked'], body: '3;ext="\x00"\r\nabc\r\n0\r\n\r\n' }),
  fc.constant({ headers: ['Transfer-Encoding: gzip, chunked'], body: '3\r\nabc\r\n0\r\n\r\n' }),
  fc.constant({ headers: ['Content-Length: -1'], body: '' }),
  fc.constant({ headers: ['Content-Length: 99999999999999999999'], body: '[' }),
  fc.constant({ headers: ['Content-Length: 1e3'], body: '[' }),
  fc.constant({ headers: ['Content-Length: 400', 'Content-Type: application/json'], body: '[{"event":"short' }),
  fc.constant({
    headers: ['Content-Length: 3', 'Content-Type: application/json'],
    body: '[{"event":"longer than announced"}]',
  }),
  fc.constant({
    headers: ['Content-Type: application/json', 'Content-Encoding: gzip', 'Content-Length: 4'],
    body: '\x1f\x8b\x08\x00',
  }),
  fc.constant({ headers: [], body: '' }),
);

export const rawRequest = (auth: string): fc.Arbitrary<RequestPlan> =>
  fc.tuple(requestLine, headerLines(auth), bodyParts).map(([line, headers, { headers: extra, body }]) => ({
    category: 'raw-http',
    route: 'raw',
    method: line.split(' ')[0] ?? '',
    path: line.slice(0, 200),
    headers: {},
    raw: Buffer.concat([
      latin1(`${line}\r\n${[...headers, ...extra, 'Connection: close'].join('\r\n')}\r\n\r\n`),
      latin1(body),
    ]),
  }));
