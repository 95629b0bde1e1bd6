import { ROLE_MATRIX } from '@analytics/auth';
import fc from 'fast-check';
import { authFor, FuzzTargets, INGEST, pathFor, queryString, RequestPlan, saneParams } from './hostile-requests';

/**
 * Fixed hostile bodies sent to every route that reads one, before the generated traffic: each
 * shape that once answered 500 (or is a classic) is tried everywhere on every run, whatever the
 * seed draws. `[null]` and deep nesting were such shapes.
 */
const BODIES: [string, string][] = [
  ['[null]', '[null]'],
  ['null', 'null'],
  ['[[]]', '[[]]'],
  ['["x"]', '["x"]'],
  ['deep array', `${'['.repeat(10_000)}${']'.repeat(10_000)}`],
  ['deep object', `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`],
  ['deep in event', `[{"event":"d","properties":{"distinct_id":"d","$insert_id":"d-1","p":${'['.repeat(3_000)}${']'.repeat(3_000)}}}]`],
  ['prototype keys', '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"name":"x"}'],
  ['huge numbers', '[{"event":"n","properties":{"distinct_id":18446744073709551616,"time":1e400,"$insert_id":"n-1","v":-0,"w":1e-400}}]'],
  ['lone surrogates', '[{"event":"\\ud800","properties":{"distinct_id":"\\udfff","$insert_id":"s-1","\\ud800":"\\ud800","time":1}}]'],
  ['NUL', '[{"event":"a\\u0000b","properties":{"distinct_id":"\\u0000","\\u0000":"\\u0000"}}]'],
  ['truncated', '[{"event":"t","properties":{"distinct_id":"t","$insert'],
];

const one = <T>(arbitrary: fc.Arbitrary<T>): T => fc.sample(arbitrary, { seed: 1, numRuns: 1 })[0];

export function corpusRequests(targets: FuzzTargets): RequestPlan[] {
  const plans: RequestPlan[] = [];
  for (const route of ROLE_MATRIX) {
    const ingest = INGEST.test(route.path);
    if (route.method === 'GET' && !ingest) continue;
    if (route.method === 'DELETE') continue;
    const path = one(pathFor(route, targets, false));
    const auth = one(authFor(route, targets));
    const params = Object.entries(saneParams(route, targets)).map(([k, v]) => [k, encodeURIComponent(v)] as [string, string]);
    const headers = (contentType?: string): Record<string, string> => ({ ...(auth ? { authorization: auth } : {}), ...(contentType ? { 'content-type': contentType } : {}) });
    const plan = (label: string, query: [string, string][], contentType?: string, body?: string): RequestPlan => ({
      category: `corpus:${label}`,
      route: `${route.method} ${route.path}`,
      method: route.method,
      path: query.length ? `${path}?${queryString(query)}` : path,
      headers: headers(contentType),
      body: body === undefined ? undefined : Buffer.from(body),
    });
    for (const [label, text] of BODIES) {
      const base64 = encodeURIComponent(Buffer.from(text).toString('base64'));
      if (route.method === 'GET') {
        if (text.length < 6_000) plans.push(plan(`${label} in data`, [...params, ['data', base64]]));
        continue;
      }
      plans.push(plan(label, params, 'application/json', text));
      if (ingest) {
        plans.push(plan(`${label} as base64 form`, params, 'application/x-www-form-urlencoded', `data=${base64}`));
        plans.push(plan(`${label} as JSON form`, params, 'application/x-www-form-urlencoded', `data=${encodeURIComponent(text)}`));
      }
    }
  }
  return plans;
}
