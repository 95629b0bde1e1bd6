import { ROLE_MATRIX, RouteAccess } from '@analytics/auth';
import fc from 'fast-check';
import { apiBody, Body, eventText, ingestBody, profileFlood, profileText } from './hostile-bodies';
import { authorizationHeader, encodeQueryValue, INJECTIONS, jsonText, queryValue } from './hostile-values';
import { rawRequest } from './raw-requests';

/** Credentials and ids the hostile traffic uses: a sandbox organization, and the projects it may ingest into. */
export interface FuzzTargets {
  /** Projects hostile ingestion sends to: the good traffic's own (its events share batches with them) and the sandbox's. */
  ingest: { token: string; secret?: string }[];
  sandbox: {
    organizationId: number;
    projectId: number;
    basic: string;
    token: string;
    bearer: string;
    serviceAccountIds: number[];
    reports: { bookmark: number; funnel: number; cohort: number };
  };
}

/** One request to send: through an HTTP client, or as raw bytes over a socket. */
export interface RequestPlan {
  category: string;
  route: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  raw?: Buffer;
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
/** Ids at the edges of the integer types that hold them (Postgres integer, JS safe integers) and just past them. */
export const BOUNDARY_IDS = [
  '0',
  '-1',
  '1.5',
  '1e3',
  '2147483647',
  '2147483648',
  '-2147483649',
  '4294967296',
  '9007199254740993',
  '99999999999999999999',
];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];
export const INGEST = /^\/(import|track|engage|groups)$/;

/** Sane values that let a request pass the parameters it does not attack, so the hostile one reaches deeper code. */
export function saneParams(route: RouteAccess, targets: FuzzTargets): Record<string, string> {
  const { sandbox } = targets;
  if (/^\/api\/(query|2\.0)\//.test(route.path)) {
    const list = /events$|export$/.test(route.path);
    const on: Record<string, string> = /retention/.test(route.path) ? {} : { on: 'properties["a"]' };
    const { bookmark, funnel } = sandbox.reports;
    return {
      project_id: String(sandbox.projectId),
      from_date: day(-3),
      to_date: day(0),
      event: list ? '["fuzz_hostile"]' : 'fuzz_hostile',
      ...on,
      name: 'a',
      born_event: 'fuzz_hostile',
      limit: '10',
      bookmark_id: String(bookmark),
      funnel_id: String(funnel),
    };
  }
  if (route.path === '/import') return { strict: '1', project_id: String(sandbox.projectId) };
  if (route.scheme === 'bearer') return { token: sandbox.token };
  if (route.scheme === 'signed-link')
    return { expires: String(Math.floor(Date.now() / 1000) + 600), signature: 'a'.repeat(64) };
  return {};
}

const PARAM_NAMES = [
  'from_date',
  'to_date',
  'event',
  'where',
  'on',
  'unit',
  'interval',
  'type',
  'limit',
  'name',
  'values',
  'born_event',
  'born_where',
  'retention_type',
  'length',
  'length_unit',
  'funnel_id',
  'bookmark_id',
  'addiction_unit',
  'interval_count',
  'unbounded_retention',
  'distinct_id',
  'distinct_ids',
  'output_properties',
  'page',
  'page_size',
  'session_id',
  'filter_by_cohort',
  'data_group_id',
  'as_of_timestamp',
  'behaviors',
  'include_all_users',
  'time_in_ms',
  'project_id',
  'workspace_id',
  'data',
  'verbose',
  'strict',
  'ip',
  'img',
  'callback',
  'redirect',
  'test',
  'token',
  'fromDate',
  'toDate',
  'expires',
  'signature',
  '__proto__',
  '__proto__[polluted]',
  'constructor[prototype][polluted]',
  'event[]',
  '_',
];

export const queryString = (params: [string, string][]) =>
  params.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&');

/** The route's path with each `:param` (and `*key`) filled: the sandbox's real ids, small ids that may exist, or hostile text. */
export function pathFor(route: RouteAccess, targets: FuzzTargets, hostile: boolean): fc.Arbitrary<string> {
  const names = route.path.match(/[:*][A-Za-z]+/g) ?? [];
  const real = (name: string) =>
    name === ':projectId'
      ? String(targets.sandbox.projectId)
      : name === ':organizationId'
        ? String(targets.sandbox.organizationId)
        : name === ':serviceAccountId'
          ? String(targets.sandbox.serviceAccountIds[0] ?? 999)
          : name === ':entityType'
            ? 'event'
            : route.path.includes('/bookmarks/')
              ? String(targets.sandbox.reports.bookmark)
              : route.path.includes('/funnels/')
                ? String(targets.sandbox.reports.funnel)
                : route.path.includes('/cohorts/')
                  ? String(targets.sandbox.reports.cohort)
                  : '1';
  const value = (name: string) =>
    hostile
      ? fc.oneof(
          queryValue.map((v) => encodeQueryValue(v).replace(/%2F/gi, '/')),
          fc.constantFrom(
            ...BOUNDARY_IDS,
            '1e400',
            '0x10',
            '..',
            '%2e%2e',
            'event',
            'user',
            'group',
            'profile',
            '$user',
            '%24user',
          ),
          fc.nat({ max: 6 }).map(String),
        )
      : name === ':serviceAccountId'
        ? fc.constantFrom(...targets.sandbox.serviceAccountIds.map(String))
        : fc.constant(real(name));
  return fc
    .tuple(...names.map((name) => value(name)))
    .map((values) => names.reduce((path, name, i) => path.replace(name, values[i]), route.path));
}

/** Credentials a route's scheme wants, for the sandbox (or an ingestion project). */
export function authFor(route: RouteAccess, targets: FuzzTargets): fc.Arbitrary<string | undefined> {
  const { sandbox, ingest } = targets;
  switch (route.scheme) {
    case 'project':
    case 'organization':
    case 'account':
      return fc.constant(sandbox.basic);
    case 'import':
      return fc.oneof(
        ...ingest.flatMap((p) =>
          p.secret
            ? [
                fc.constantFrom(
                  `Basic ${Buffer.from(`${p.secret}:`).toString('base64')}`,
                  `Basic ${Buffer.from(p.secret).toString('base64')}`,
                ),
              ]
            : [],
        ),
        fc.constant(`Basic ${Buffer.from(`${sandbox.token}:`).toString('base64')}`),
      );
    case 'bearer':
      return fc.constant(`Bearer ${sandbox.bearer}`);
    default:
      return fc.constant(undefined);
  }
}

function bodyFor(route: RouteAccess, targets: FuzzTargets): fc.Arbitrary<Body> {
  const token = fc.constantFrom(...targets.ingest.map((p) => p.token), targets.sandbox.token);
  if (route.path === '/engage')
    return token.chain((t) =>
      fc.oneof({ weight: 24, arbitrary: ingestBody(profileText(t)) }, { weight: 1, arbitrary: profileFlood(t) }),
    );
  if (route.path === '/groups') return token.chain((t) => ingestBody(profileText(t)));
  if (INGEST.test(route.path)) return token.chain((t) => ingestBody(eventText(t)));
  const shaped = fc
    .array(
      fc.tuple(
        fc.constantFrom(
          'name',
          'description',
          'date',
          'tags',
          'username',
          'role',
          'expires',
          'projects',
          'region',
          'entries',
          'truncate',
          'schema',
          'schemaJson',
          'entityType',
          'params',
          'steps',
          'distinct_ids',
          'expires_in',
          'compliance_type',
          'id',
          'project_id',
          '__proto__',
          'constructor',
        ),
        jsonText,
      ),
      { maxLength: 6 },
    )
    .map((pairs) => `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`);
  return apiBody(shaped);
}

const EXTRA_HEADERS = fc.dictionary(
  fc.constantFrom(
    'x-forwarded-for',
    'origin',
    'accept',
    'accept-encoding',
    'x-request-id',
    'user-agent',
    'cookie',
    'referer',
    'accept-language',
    'x-forwarded-proto',
    'forwarded',
    'range',
    'if-none-match',
    'expect',
  ),
  fc.oneof(
    fc.constantFrom(...INJECTIONS),
    fc.string({ unit: 'grapheme-ascii', maxLength: 80 }),
    fc.constantFrom(
      'null',
      '1.2.3.4, 999.1.1.1',
      '::ffff:',
      'gzip;q=bogus, br',
      '100-continue',
      'bytes=0-1,5-',
      '*/*;q=2',
      'a'.repeat(4000),
    ),
  ),
  { maxKeys: 3 },
);

/** A hostile request for one route of the matrix: each dimension sane or hostile, at least one hostile. */
export function routeRequest(route: RouteAccess, targets: FuzzTargets): fc.Arbitrary<RequestPlan> {
  const takesBody = route.method !== 'GET' && route.method !== 'DELETE';
  const dims = fc
    .record({
      query: fc.boolean(),
      path: fc.nat({ max: 4 }).map((n) => n === 0),
      auth: fc.nat({ max: 30 }).map((n) => n === 0),
      method: fc.nat({ max: 8 }).map((n) => n === 0),
      headers: fc.nat({ max: 8 }).map((n) => n === 0),
      body: fc.nat({ max: 9 }).map((n) => n > 2 && takesBody),
      chunked: fc.nat({ max: 10 }).map((n) => n === 0),
    })
    .map((d) => (Object.entries(d).some(([k, v]) => v && k !== 'chunked') ? d : { ...d, query: true }));
  return dims.chain((d) =>
    fc
      .record({
        path: pathFor(route, targets, d.path),
        method: d.method ? fc.constantFrom(...METHODS) : fc.constant(route.method),
        auth: d.auth ? authorizationHeader : authFor(route, targets),
        injected: d.query
          ? fc.array(fc.tuple(fc.constantFrom(...PARAM_NAMES), queryValue), { minLength: 1, maxLength: 4 })
          : fc.constant([]),
        body: d.body || (takesBody && INGEST.test(route.path)) ? bodyFor(route, targets) : fc.constant(undefined),
        getData:
          route.method === 'GET' && INGEST.test(route.path)
            ? fc.constantFrom(...targets.ingest.map((p) => p.token)).chain((t) => ingestBody(eventText(t)))
            : fc.constant(undefined),
        extra: d.headers ? EXTRA_HEADERS : fc.constant({}),
      })
      .map(({ path, method, auth, injected, body, getData, extra }) => {
        const params = Object.entries(saneParams(route, targets)).map(
          ([k, v]) => [k, encodeURIComponent(v)] as [string, string],
        );
        for (const [name, value] of injected) {
          const index = params.findIndex(([k]) => k === name);
          if (index >= 0) params.splice(index, 1);
          params.push([name, encodeQueryValue(value)]);
        }
        if (getData && getData.bytes.length < 12_000)
          params.push([
            'data',
            getData.label === 'form'
              ? getData.bytes.toString().replace(/^data=/, '')
              : encodeURIComponent(getData.bytes.toString('base64')),
          ]);
        const headers: Record<string, string> = { ...extra };
        if (auth !== undefined) headers.authorization = auth;
        if (body?.contentType) headers['content-type'] = body.contentType;
        if (body?.contentEncoding) headers['content-encoding'] = body.contentEncoding;
        if (d.chunked) headers['transfer-encoding'] = 'chunked';
        const dimensions = Object.entries(d)
          .filter(([, v]) => v)
          .map(([k]) => k);
        const category = [...dimensions, ...(body ? [`body:${body.label}`] : [])].join('+');
        return {
          category,
          route: `${route.method} ${route.path}`,
          method,
          path: params.length ? `${path}?${queryString(params)}` : path,
          headers,
          body: body?.bytes,
        };
      }),
  );
}

/** Paths no route serves: near misses of real ones, traversal, encodings, very long. */
const unknownPath = fc.oneof(
  fc
    .array(
      fc.oneof(
        fc.constantFrom(
          'api',
          'app',
          'query',
          '2.0',
          'projects',
          '2',
          'track',
          'import',
          '..',
          '%2e%2e',
          '',
          '.',
          '%00',
          '%ED%A0%80',
          '%ff',
          'TRACK',
          'Import',
          'healthz.json',
          ';x=1',
          '%2F',
          'api%2Fapp',
        ),
        fc.string({ unit: 'grapheme-ascii', maxLength: 12 }).map(encodeURIComponent),
      ),
      { minLength: 1, maxLength: 8 },
    )
    .map((segments) => `/${segments.join('/')}`),
  fc
    .constantFrom(...ROLE_MATRIX.map((r) => r.path))
    .chain((p) =>
      fc.constantFrom(
        `${p}/extra`,
        `${p}//`,
        `/${p}`,
        p.toUpperCase(),
        `${p}.json`,
        `${p};a=b`,
        `${p}%00`,
        `${p}/..%2f..%2fhealthz`,
      ),
    ),
  fc.integer({ min: 2_000, max: 15_000 }).map((n) => `/${'a/'.repeat(n / 2)}`),
);

export const unknownRequest = (targets: FuzzTargets): fc.Arbitrary<RequestPlan> =>
  fc
    .record({
      path: unknownPath,
      method: fc.constantFrom(...METHODS),
      injected: fc.array(fc.tuple(fc.constantFrom(...PARAM_NAMES), queryValue), { maxLength: 2 }),
      body: fc.option(apiBody(jsonText), { freq: 2 }),
    })
    .map(({ path, method, injected, body }) => ({
      category: 'unknown-path',
      route: 'unknown',
      method,
      path: injected.length ? `${path}?${queryString(injected.map(([k, v]) => [k, encodeQueryValue(v)]))}` : path,
      headers: {
        authorization: targets.sandbox.basic,
        ...(body?.contentType ? { 'content-type': body.contentType } : {}),
      },
      body: method === 'GET' || method === 'HEAD' ? undefined : body?.bytes,
    }));

/** Every route of the matrix, unknown paths and malformed HTTP, weighted so each route gets its share. */
export function hostileRequest(targets: FuzzTargets): fc.Arbitrary<RequestPlan> {
  const routes = ROLE_MATRIX.map((route) => ({
    weight: INGEST.test(route.path) ? 12 : 2,
    arbitrary: routeRequest(route, targets),
  }));
  return fc.oneof(
    { weight: 92, arbitrary: fc.oneof(...routes) },
    { weight: 5, arbitrary: unknownRequest(targets) },
    { weight: 3, arbitrary: rawRequest(targets.sandbox.basic) },
  );
}
