import { ROLE_MATRIX, RouteAccess } from '@analytics/auth';
import { postgresServerAvailable } from '@analytics/testing';
import {
  alert,
  BOOKMARK,
  COHORT,
  Disposable,
  EVENT,
  FUNNEL,
  RETENTION,
  GROUP_KEY,
  nowSeconds,
  PIPELINE_FIELDS,
  PURCHASE,
  SampleCaller,
  SampleObjects,
  SCHEMA_EVENT,
  WAREHOUSE_SOURCE,
  warehouseImport,
} from './sample-objects';

/**
 * A valid request for every route the role-matrix walk calls with credentials, so that an allowed
 * role must get a 2xx: a 400 (bad sample or wrong validation), 404 (missing object) or 500 is a
 * failure, not a pass. Keyed by `METHOD path` as the matrix names routes.
 */

export interface SampleRequest {
  /** Path parameters other than `:projectId` and `:organizationId`. */
  params?: Record<string, string | number>;
  query?: Record<string, string>;
  /** Sent as JSON (GET and DELETE send none). */
  body?: unknown;
  /** Beyond the 2xx: why the answer is not a success, if it is not (the SDK transport answers 200 with a refusal in the body). */
  refusal?: (body: string) => string | undefined;
  /** Walked after every other route: it destroys what other samples read. */
  last?: true;
  /** A product bug that makes this sample fail for this caller: named here so the walk stays red for any other. */
  knownFailure?: string;
  /** Where the walk's own engines make the served answer a refusal (not a 2xx): its status, and why. */
  refusedHere?: { status: number; because: string };
}

export type Sample = (objects: SampleObjects, caller: SampleCaller) => SampleRequest;

const base64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
const range = (o: SampleObjects) => ({ from_date: o.fromDate, to_date: o.toDate });
const importedEvent = (caller: SampleCaller, transport: string) => ({
  event: EVENT,
  properties: {
    time: nowSeconds() - 60,
    distinct_id: `walker-${caller}`,
    $insert_id: `walk-${transport}-${caller}`,
    plan: 'pro',
  },
});

const APP = '/api/app/projects/:projectId';
const ORGANIZATION = '/api/app/organizations/:organizationId';

/** Saved reports share one shape: list, create, get, patch, delete. */
function savedReport(
  kind: 'bookmarks' | 'funnels' | 'cohorts' | 'retention-reports' | 'boards' | 'alerts',
  param: string,
  create: unknown | ((o: SampleObjects) => unknown),
  patch: unknown,
  id: (o: SampleObjects) => number,
  disposable: (d: Disposable) => number,
): Record<string, Sample> {
  return {
    [`GET ${APP}/${kind}`]: () => ({}),
    [`POST ${APP}/${kind}`]: (o) => ({ body: typeof create === 'function' ? create(o) : create }),
    [`GET ${APP}/${kind}/${param}`]: (o) => ({ params: { [param.slice(1)]: id(o) } }),
    [`PATCH ${APP}/${kind}/${param}`]: (o) => ({ params: { [param.slice(1)]: id(o) }, body: patch }),
    [`DELETE ${APP}/${kind}/${param}`]: (o, caller) => ({
      params: { [param.slice(1)]: disposable(o.disposable[caller]) },
    }),
  };
}

/** The query API answers under both prefixes alike. */
function query(path: string, sample: Sample): Record<string, Sample> {
  return { [`/api/query${path}`]: sample, [`/api/2.0${path}`]: sample };
}
const get = (paths: Record<string, Sample>) =>
  Object.fromEntries(Object.entries(paths).map(([path, sample]) => [`GET ${path}`, sample]));
const post = (paths: Record<string, Sample>) =>
  Object.fromEntries(Object.entries(paths).map(([path, sample]) => [`POST ${path}`, sample]));

export const SAMPLE_REQUESTS: Record<string, Sample> = {
  'GET /api/app/me': () => ({}),
  'POST /api/app/organizations': (_, caller) => ({
    body: { name: `Made by ${caller}`, owner_username: `first-${caller}` },
  }),
  'POST /api/app/backup': () =>
    postgresServerAvailable() || process.env.TEST_CLICKHOUSE_ADMIN_URL
      ? { refusedHere: { status: 409, because: 'a backup copies embedded engines only, and the walk runs on servers' } }
      : {},

  [`GET ${ORGANIZATION}/service-accounts`]: () => ({}),
  [`POST ${ORGANIZATION}/service-accounts`]: (o, caller) => ({
    body: { username: `made-by-${caller}`, role: 'consumer', projects: [{ id: o.projectId, role: 'consumer' }] },
  }),
  [`GET ${ORGANIZATION}/service-accounts/:serviceAccountId`]: (o) => ({
    params: { serviceAccountId: o.memberAccountId },
  }),
  [`DELETE ${ORGANIZATION}/service-accounts/:serviceAccountId`]: (o, caller) => ({
    params: { serviceAccountId: o.disposable[caller].serviceAccountId },
  }),
  [`POST ${ORGANIZATION}/service-accounts/add-to-project`]: (o) => ({
    body: { projects: [{ id: o.projectId, role: 'consumer' }], service_account_ids: [o.memberAccountId] },
  }),
  [`POST ${ORGANIZATION}/service-accounts/remove-from-project`]: (o) => ({
    body: { projects: [{ id: o.projectId, service_account_ids: [o.memberAccountId] }] },
  }),
  [`GET ${ORGANIZATION}/projects`]: () => ({}),
  [`POST ${ORGANIZATION}/projects`]: (_, caller) => ({ body: { name: `Made by ${caller}`, region: 'EU' } }),
  [`POST ${ORGANIZATION}/oauth-tokens`]: () => ({ body: { expires_in: 600 } }),

  [`GET ${APP}`]: () => ({}),
  // An empty patch (both fields are optional) is as valid as a rename: the owner sends one, the admin renames.
  [`PATCH ${APP}`]: (_, caller) => (caller === 'owner' ? { body: {} } : { body: { name: 'Home project' } }),
  // The walk authenticates with service accounts only: nothing later uses the project secret this replaces.
  [`POST ${APP}/rotate-secret`]: () => ({}),

  [`GET ${APP}/usage`]: (o) => ({ query: range(o) }),
  [`GET ${APP}/group-keys`]: () => ({}),
  [`POST ${APP}/group-keys`]: () => ({ body: { name: GROUP_KEY } }),
  [`DELETE ${APP}/group-keys/:name`]: (o, caller) => ({ params: { name: o.disposable[caller].groupKey } }),

  [`GET ${APP}/warehouse-sources`]: () => ({}),
  [`POST ${APP}/warehouse-sources`]: (_, caller) => ({ body: { ...WAREHOUSE_SOURCE, name: `made by ${caller}` } }),
  [`GET ${APP}/warehouse-sources/:sourceId`]: (o) => ({ params: { sourceId: o.warehouseSourceId } }),
  [`DELETE ${APP}/warehouse-sources/:sourceId`]: (o, caller) => ({
    params: { sourceId: o.disposable[caller].warehouseSourceId },
  }),
  [`POST ${APP}/warehouse-sources/imports/event-stream`]: (o, caller) => ({
    body: warehouseImport(o.warehouseSourceId, `made by ${caller}`),
  }),
  [`POST ${APP}/warehouse-sources/imports/people`]: (o, caller) => ({
    body: {
      warehouse_source_id: o.warehouseSourceId,
      name: `people by ${caller}`,
      table_params: { table_name: 'users' },
      user_column_name: 'user_id',
      sync_mode: 'full_sync',
      run_every: 0,
    },
  }),
  [`POST ${APP}/warehouse-sources/imports/groups`]: (o, caller) => ({
    body: {
      warehouse_source_id: o.warehouseSourceId,
      name: `groups by ${caller}`,
      table_params: { query: 'select * from companies' },
      group_key: GROUP_KEY,
      group_id_column_name: 'company_id',
      sync_mode: 'full_sync',
      run_every: 0,
    },
  }),
  [`GET ${APP}/warehouse-sources/imports`]: () => ({}),
  [`GET ${APP}/warehouse-sources/imports/:importId`]: (o) => ({ params: { importId: o.warehouseImportId } }),
  [`PATCH ${APP}/warehouse-sources/imports/:importId`]: (o) => ({
    params: { importId: o.warehouseImportId },
    body: { paused: false, run_every: 0 },
  }),
  [`DELETE ${APP}/warehouse-sources/imports/:importId`]: (o, caller) => ({
    params: { importId: o.disposable[caller].warehouseImportId },
    query: { delete_data: 'true' },
  }),
  [`GET ${APP}/warehouse-sources/imports/:importId/history`]: (o) => ({ params: { importId: o.warehouseImportId } }),
  [`PUT ${APP}/warehouse-sources/imports/:importId/manual-sync`]: (o) => ({
    params: { importId: o.warehouseImportId },
  }),

  [`GET ${APP}/annotations`]: (o) => ({ query: { fromDate: o.fromDate, toDate: `${o.toDate} 23:59:59` } }),
  [`POST ${APP}/annotations`]: (o, caller) => ({
    body: { date: `${o.toDate} 12:00:00`, description: `walked by ${caller}` },
  }),
  [`GET ${APP}/annotations/:annotationId`]: (o) => ({ params: { annotationId: o.annotationId } }),
  [`PATCH ${APP}/annotations/:annotationId`]: (o, caller) => ({
    params: { annotationId: o.annotationId },
    body: { description: `patched by ${caller}`, tags: [] },
  }),
  [`DELETE ${APP}/annotations/:annotationId`]: (o, caller) => ({
    params: { annotationId: o.disposable[caller].annotationId },
  }),
  [`GET ${APP}/annotations/tags`]: () => ({}),
  [`GET ${APP}/lookup-tables`]: () => ({}),
  [`POST ${APP}/lookup-tables`]: (_, caller) => ({ body: { name: `made by ${caller}` } }),
  [`GET ${APP}/lookup-tables/:tableId`]: (o) => ({ params: { tableId: o.lookupTableId } }),
  [`PATCH ${APP}/lookup-tables/:tableId`]: (o) => ({ params: { tableId: o.lookupTableId }, body: { name: 'Plans' } }),
  [`DELETE ${APP}/lookup-tables/:tableId`]: (o, caller) => ({
    params: { tableId: o.disposable[caller].lookupTableId },
  }),
  [`POST ${APP}/annotations/tags`]: () => ({ body: { name: 'release' } }),

  [`GET ${APP}/schemas`]: () => ({}),
  [`POST ${APP}/schemas`]: () => ({
    body: {
      entries: [{ entityType: 'event', name: SCHEMA_EVENT, schemaJson: { description: 'uploaded in a batch' } }],
    },
  }),
  // The whole dictionary goes: every read of a schema must come before.
  [`DELETE ${APP}/schemas`]: () => ({ last: true }),
  [`GET ${APP}/schemas/seen`]: () => ({}),
  [`GET ${APP}/schemas/:entityType`]: () => ({ params: { entityType: 'event' } }),
  // Profile schemas only: the event schemas other samples read stay.
  [`DELETE ${APP}/schemas/:entityType`]: () => ({ params: { entityType: 'profile' } }),
  [`GET ${APP}/schemas/:entityType/:name`]: () => ({ params: { entityType: 'event', name: SCHEMA_EVENT } }),
  [`POST ${APP}/schemas/:entityType/:name`]: () => ({
    params: { entityType: 'event', name: SCHEMA_EVENT },
    body: { description: 'uploaded alone', properties: { plan: { type: 'string' } } },
  }),
  [`DELETE ${APP}/schemas/:entityType/:name`]: (o, caller) => ({
    params: { entityType: 'event', name: o.disposable[caller].schemaName },
  }),

  ...savedReport(
    'bookmarks',
    ':id',
    BOOKMARK,
    { name: 'Daily signups (patched)' },
    (o) => o.bookmarkId,
    (d) => d.bookmarkId,
  ),
  ...savedReport(
    'funnels',
    ':funnelId',
    FUNNEL,
    { length: 2 },
    (o) => o.funnelId,
    (d) => d.funnelId,
  ),
  ...savedReport(
    'cohorts',
    ':id',
    COHORT,
    { description: 'patched' },
    (o) => o.cohortId,
    (d) => d.cohortId,
  ),
  ...savedReport(
    'retention-reports',
    ':id',
    RETENTION,
    { interval_count: 14 },
    (o) => o.retentionId,
    (d) => d.retentionId,
  ),
  ...savedReport(
    'boards',
    ':boardId',
    { name: 'Made by the walk' },
    { description: 'patched' },
    (o) => o.boardId,
    (d) => d.boardId,
  ),
  [`POST ${APP}/boards/:boardId/share`]: (o) => ({ params: { boardId: o.boardId }, body: { expires_in_days: 1 } }),
  [`DELETE ${APP}/boards/:boardId/share`]: (o) => ({ params: { boardId: o.boardId } }),
  ...savedReport(
    'alerts',
    ':alertId',
    (o: SampleObjects) => alert(o.bookmarkId),
    { threshold: 2 },
    (o) => o.alertId,
    (d) => d.alertId,
  ),
  [`GET ${APP}/alerts/:alertId/history`]: (o) => ({ params: { alertId: o.alertId } }),
  [`POST ${APP}/alerts/:alertId/test`]: (o) => ({ params: { alertId: o.alertId } }),

  'GET /lookup-tables': () => ({}),
  'PUT /lookup-tables/:id': (o) => ({ params: { id: o.lookupTableId }, body: 'plan,tier\npro,paid\nfree,free\n' }),
  'POST /import': (_, caller) => ({ query: { strict: '1' }, body: [importedEvent(caller, 'post')] }),
  // The SDK transport answers 200 either way; `verbose=1` says whether the event was taken.
  'GET /import': (_, caller) => ({
    query: { verbose: '1', data: base64([importedEvent(caller, 'get')]) },
    refusal: (body) => (body.includes('"status":1') ? undefined : 'the SDK transport refused the event'),
  }),

  'GET /api/2.0/export': (o) => ({
    query: { ...range(o), event: JSON.stringify([PURCHASE]) },
    refusal: (body) =>
      body.includes(`"event":"${PURCHASE}"`) ? undefined : 'the export holds none of the ingested events',
  }),

  // Owner and admin each create a pipeline of their own (one name per live pipeline), daily over today: nothing due.
  'POST /api/2.0/nessie/pipeline/create': (o, caller) => ({
    body: {
      ...PIPELINE_FIELDS,
      from_date: o.toDate,
      to_date: o.toDate,
      data_format: 'parquet',
      schema_type: 'multischema',
      data_source: caller === 'owner' ? 'events' : 'people',
    },
  }),
  'GET /api/2.0/nessie/pipeline/jobs': (o) => ({
    refusal: (body) => (body.includes(o.pipelineName) ? undefined : 'the list lacks the seeded pipeline'),
  }),
  'GET /api/2.0/nessie/pipeline/status': (o) => ({ query: { name: o.pipelineName } }),
  'GET /api/2.0/nessie/pipeline/timeline': (o) => ({ query: { name: o.pipelineName } }),
  'POST /api/2.0/nessie/pipeline/pause': (o) => ({ body: { name: o.pipelineName } }),
  'POST /api/2.0/nessie/pipeline/resume': (o) => ({ body: { name: o.pipelineName } }),
  'POST /api/2.0/nessie/pipeline/cancel': (o, caller) => ({ body: { name: o.disposable[caller].pipelineName } }),

  ...get({
    ...query('/engage', () => ({ query: { distinct_id: 'u1' } })),
    ...query('/insights', (o) => ({ query: { bookmark_id: String(o.bookmarkId) } })),
    ...query('/funnels', (o) => ({ query: { funnel_id: String(o.funnelId), ...range(o), on: 'properties["plan"]' } })),
    ...query('/funnels/list', () => ({})),
    ...query('/retention', (o) => ({
      query: { ...range(o), born_event: EVENT, event: PURCHASE, interval_count: '2' },
    })),
    ...query('/retention/addiction', (o) => ({
      query: { ...range(o), event: EVENT, unit: 'day', addiction_unit: 'hour' },
    })),
    ...query('/cohorts/list', () => ({})),
    ...query('/segmentation', (o) => ({
      query: { ...range(o), event: EVENT, on: 'properties["plan"]', type: 'unique' },
    })),
    ...query('/segmentation/numeric', (o) => ({ query: { ...range(o), event: PURCHASE, on: 'properties["amount"]' } })),
    ...query('/segmentation/sum', (o) => ({ query: { ...range(o), event: PURCHASE, on: 'properties["amount"]' } })),
    ...query('/segmentation/average', (o) => ({ query: { ...range(o), event: PURCHASE, on: 'properties["amount"]' } })),
    ...query('/events', (o) => ({
      query: { ...range(o), event: JSON.stringify([EVENT, PURCHASE]), type: 'general', unit: 'day' },
    })),
    ...query('/events/names', () => ({ query: { type: 'general', limit: '10' } })),
    ...query('/events/properties', (o) => ({
      query: { ...range(o), event: EVENT, name: 'plan', values: JSON.stringify(['pro', 'free']) },
    })),
    ...query('/events/properties/top', () => ({ query: { event: EVENT, limit: '5' } })),
    ...query('/engage/properties', () => ({ query: { limit: '100' } })),
    ...query('/engage/revenue', (o) => ({ query: { ...range(o), unit: 'day' } })),
    '/api/2.0/annotations': (o) => ({ query: range(o) }),
    ...query('/events/properties/values', () => ({ query: { event: EVENT, name: 'plan' } })),
    ...query('/flows', (o) => ({
      query: { ...range(o), event: EVENT, direction: 'after', steps: '2', where: 'properties["plan"] == "pro"' },
      refusal: (body) => (body.includes(`"${PURCHASE}"`) ? undefined : 'no path reaches the seeded purchase'),
    })),
    ...query('/stream/query', (o) => ({
      query: { ...range(o), distinct_ids: JSON.stringify(['u1']), limit: '10' },
      refusal: (body) => (body.includes(`"event":"${EVENT}"`) ? undefined : 'the stream lacks u1’s seeded events'),
    })),
  }),
  ...post({
    // Cohort members: the spec's way of reading a saved cohort.
    ...query('/engage', (o) => ({
      body: {
        filter_by_cohort: { id: o.cohortId },
        where: 'properties["plan"] == "pro"',
        output_properties: ['plan'],
        page_size: 10,
      },
    })),
    ...query('/cohorts/list', () => ({ body: {} })),
    ...query('/engage/revenue', (o) => ({ query: range(o) })),
  }),
};

/** The schemes the walk calls with credentials; the others are walked elsewhere (SDK ingestion, downloads, compliance). */
const WALKED_SCHEMES: readonly RouteAccess['scheme'][] = ['project', 'organization', 'account', 'import'];

/** Served routes the walk calls with credentials that have no sample: a new route must come with one. */
export function routesWithoutSample(): string[] {
  return ROLE_MATRIX.filter((r) => r.served !== false && WALKED_SCHEMES.includes(r.scheme))
    .map((r) => `${r.method} ${r.path}`)
    .filter((key) => !SAMPLE_REQUESTS[key]);
}

/** Samples for routes the matrix no longer serves (or never named): left behind by a rename. */
export function samplesWithoutRoute(): string[] {
  const walked = new Set(
    ROLE_MATRIX.filter((r) => r.served !== false && WALKED_SCHEMES.includes(r.scheme)).map(
      (r) => `${r.method} ${r.path}`,
    ),
  );
  return Object.keys(SAMPLE_REQUESTS).filter((key) => !walked.has(key));
}
