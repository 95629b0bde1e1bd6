import { ROLE_MATRIX, RouteAccess } from '@analytics/auth';
import fc from 'fast-check';
import { profileFloodText } from './hostile-bodies';
import {
  authFor,
  BOUNDARY_IDS,
  FuzzTargets,
  INGEST,
  pathFor,
  queryString,
  RequestPlan,
  saneParams,
} from './hostile-requests';

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
  [
    'deep in event',
    `[{"event":"d","properties":{"distinct_id":"d","$insert_id":"d-1","p":${'['.repeat(3_000)}${']'.repeat(3_000)}}}]`,
  ],
  ['prototype keys', '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"name":"x"}'],
  [
    'huge numbers',
    '[{"event":"n","properties":{"distinct_id":18446744073709551616,"time":1e400,"$insert_id":"n-1","v":-0,"w":1e-400}}]',
  ],
  [
    'lone surrogates',
    '[{"event":"\\ud800","properties":{"distinct_id":"\\udfff","$insert_id":"s-1","\\ud800":"\\ud800","time":1}}]',
  ],
  ['NUL', '[{"event":"a\\u0000b","properties":{"distinct_id":"\\u0000","\\u0000":"\\u0000"}}]'],
  ['truncated', '[{"event":"t","properties":{"distinct_id":"t","$insert'],
  [
    'NUL token',
    '[{"event":"a","properties":{"token":"a\\u0000","distinct_id":"a"},"$token":"\\u0000","$distinct_id":"a","$group_key":"k","$group_id":"a","$set":{"a":1}}]',
  ],
  [
    'lone surrogate token',
    '[{"event":"a","properties":{"token":"\\ud800","distinct_id":"a"},"$token":"\\udfff","$distinct_id":"a","$group_key":"k","$group_id":"a","$set":{"a":1}}]',
  ],
];

/**
 * What every run tries in every path parameter and `project_id`: boundary ids (the generated traffic
 * draws from all of BOUNDARY_IDS), NUL and a lone surrogate (CESU-8), which text columns refuse.
 */
const CORPUS_IDS = [
  ...BOUNDARY_IDS.filter((id) => ['-1', '2147483648', '-2147483649', '99999999999999999999'].includes(id)),
  '%00',
  'a%00',
  '%ED%A0%80',
];

const one = <T>(arbitrary: fc.Arbitrary<T>): T => fc.sample(arbitrary, { seed: 1, numRuns: 1 })[0];

export function corpusRequests(targets: FuzzTargets): RequestPlan[] {
  const plans: RequestPlan[] = [];
  for (const route of ROLE_MATRIX) {
    const ingest = INGEST.test(route.path);
    const path = one(pathFor(route, targets, false));
    const auth = one(authFor(route, targets));
    const params = Object.entries(saneParams(route, targets)).map(
      ([k, v]) => [k, encodeURIComponent(v)] as [string, string],
    );
    const headers = (contentType?: string): Record<string, string> => ({
      ...(auth ? { authorization: auth } : {}),
      ...(contentType ? { 'content-type': contentType } : {}),
    });
    const plan = (label: string, query: [string, string][], contentType?: string, body?: string): RequestPlan => ({
      category: `corpus:${label}`,
      route: `${route.method} ${route.path}`,
      method: route.method,
      path: query.length ? `${path}?${queryString(query)}` : path,
      headers: headers(contentType),
      body: body === undefined ? undefined : Buffer.from(body),
    });
    plans.push(...boundaryIds(route, targets));
    // 1.7 MB of `$union` on one profile of the good project, then a `/healthz` must still answer at once.
    if (route.path === '/engage' && route.method === 'POST')
      plans.push(plan('union flood', params, 'application/json', profileFloodText(targets.ingest[0].token, 700, 300)));
    if ((route.method === 'GET' && !ingest) || route.method === 'DELETE') continue;
    for (const [label, text] of BODIES) {
      const base64 = encodeURIComponent(Buffer.from(text).toString('base64'));
      if (route.method === 'GET') {
        if (text.length < 6_000) plans.push(plan(`${label} in data`, [...params, ['data', base64]]));
        continue;
      }
      plans.push(plan(label, params, 'application/json', text));
      if (ingest) {
        plans.push(plan(`${label} as base64 form`, params, 'application/x-www-form-urlencoded', `data=${base64}`));
        plans.push(
          plan(
            `${label} as JSON form`,
            params,
            'application/x-www-form-urlencoded',
            `data=${encodeURIComponent(text)}`,
          ),
        );
      }
    }
  }
  return plans;
}

/** Each `:param` of the path, and `project_id` where the route reads one, set to each of CORPUS_IDS in turn (the rest sane). */
function boundaryIds(route: RouteAccess, targets: FuzzTargets): RequestPlan[] {
  const auth = one(authFor(route, targets));
  const sane = one(pathFor(route, targets, false));
  const params = Object.entries(saneParams(route, targets)).map(
    ([k, v]) => [k, encodeURIComponent(v)] as [string, string],
  );
  const plans: RequestPlan[] = [];
  const plan = (label: string, path: string, query: [string, string][]): RequestPlan => ({
    category: `corpus:${label}`,
    route: `${route.method} ${route.path}`,
    method: route.method,
    path: query.length ? `${path}?${queryString(query)}` : path,
    headers: {
      ...(auth ? { authorization: auth } : {}),
      ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { 'content-type': 'application/json' }),
    },
    body: route.method === 'GET' || route.method === 'DELETE' ? undefined : Buffer.from('{}'),
  });
  const names = route.path.match(/[:*][A-Za-z]+/g) ?? [];
  const saneSegments = sane.split('/');
  for (const name of names) {
    const index = route.path.split('/').indexOf(name);
    for (const id of CORPUS_IDS)
      plans.push(
        plan(`${name}=${id}`, saneSegments.map((segment, i) => (i === index ? id : segment)).join('/'), params),
      );
  }
  if (/^\/api\/(query|2\.0)\/|^\/import$/.test(route.path)) {
    for (const id of CORPUS_IDS)
      plans.push(plan(`project_id=${id}`, sane, [...params.filter(([k]) => k !== 'project_id'), ['project_id', id]]));
  }
  return plans;
}
