import { Role, ROLES } from '@analytics/auth';
import { eventually } from '@analytics/testing';

/** What the role-matrix walk's sample requests point at, created through the API before the walk. */

export const EVENT = 'Signed up';
export const PURCHASE = 'Purchased';
/** The event schema the dictionary samples read and overwrite. */
export const SCHEMA_EVENT = 'Walked';
export const GROUP_KEY = 'company';

export const BOOKMARK = {
  name: 'Daily signups',
  params: {
    events: [
      { event: EVENT, math: 'unique' },
      { event: PURCHASE, math: 'sum', property: 'amount' },
    ],
    last_days: 7,
    unit: 'day',
  },
};
export const FUNNEL = {
  name: 'Signup to purchase',
  steps: [{ event: EVENT }, { event: PURCHASE }],
  length: 1,
  length_unit: 'day',
};
export const RETENTION = {
  name: 'Return after signup',
  retention_type: 'birth',
  born_event: EVENT,
  unit: 'day',
  interval_count: 7,
};
export const WAREHOUSE_SOURCE = {
  name: 'Lake',
  type: 'bigquery',
  connection: { project_id: 'lake', dataset: 'analytics', key: '{"private_key":"walk"}' },
};
/** An event import that never runs by itself (`run_every` 0). */
export const warehouseImport = (sourceId: number, name: string) => ({
  warehouse_source_id: sourceId,
  name,
  table_params: { table_name: 'events', schema: 'analytics' },
  time_column_name: 'ts',
  event_name: EVENT,
  user_column_name: 'user_id',
  insert_time_column_name: 'inserted_at',
  run_every: 0,
});
export const COHORT = {
  name: 'Signed up',
  description: 'everyone who signed up',
  definition: { behavior: { event: EVENT, min_count: 1, last_days: 30 } },
};

/** An alert whose webhook nobody answers (the walk allows loopback): the test button reports the refusal, with a 200. */
export const alert = (bookmarkId: number, name = 'Signups drop') => ({
  name,
  bookmark_id: bookmarkId,
  rule: 'below',
  threshold: 1,
  cadence: 'daily',
  webhook_url: 'http://127.0.0.1:9/alerts',
});

/** A pipeline into a bucket nobody reads: the walk only creates, lists, pauses and cancels. */
export const PIPELINE_FIELDS = {
  type: 's3-raw',
  s3_bucket: 'walk-bucket',
  s3_region: 'us-east-1',
  s3_endpoint: 'http://127.0.0.1:9',
  s3_force_path_style: 'true',
  s3_access_key_id: 'walker',
  s3_secret_access_key: 'walker-secret',
};
/** Daily only: a day that has not ended has no window due, so nothing is exported during the walk. */
const DISPOSABLE_PIPELINES: Record<string, string>[] = [
  { trial: 'true', data_source: 'events', schema_type: 'monoschema' },
  { trial: 'true', data_source: 'events', schema_type: 'multischema' },
  { trial: 'true', data_source: 'people', schema_type: 'monoschema' },
  { trial: 'true', data_source: 'people', schema_type: 'multischema' },
  { data_source: 'people', schema_type: 'monoschema' },
];

/** Whom a sample is built for: a role of the home organization, or anyone who must be refused (anonymous, expired, foreign, stranger). */
export type SampleCaller = Role | 'outsider';
export const SAMPLE_CALLERS: readonly SampleCaller[] = [...ROLES, 'outsider'];

/** Objects a destructive sample removes: one per caller, so one caller's delete leaves the next caller's target in place. */
export interface Disposable {
  annotationId: number;
  lookupTableId: string;
  bookmarkId: number;
  funnelId: number;
  cohortId: number;
  retentionId: number;
  boardId: number;
  alertId: number;
  serviceAccountId: number;
  groupKey: string;
  schemaName: string;
  warehouseSourceId: number;
  warehouseImportId: number;
  pipelineName: string;
}

/** What the samples point at: created by {@link seedSampleObjects} before the walk. */
export interface SampleObjects {
  projectId: number;
  /** The window the ingested events fall in, `YYYY-MM-DD` (UTC). */
  fromDate: string;
  toDate: string;
  annotationId: number;
  lookupTableId: string;
  bookmarkId: number;
  funnelId: number;
  cohortId: number;
  retentionId: number;
  boardId: number;
  alertId: number;
  /** A BigQuery source (stored without a connection test) and an event import on it, API-triggered only. */
  warehouseSourceId: number;
  warehouseImportId: number;
  /** A consumer account that add-to-project / remove-from-project move in and out of the project. */
  memberAccountId: number;
  /** A pipeline that pause, resume, status and timeline act on. */
  pipelineName: string;
  disposable: Record<SampleCaller, Disposable>;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface Seeding {
  baseUrl: string;
  /** An owner of the organization, as a Basic authorization header. */
  owner: string;
  projectId: number;
  organizationId: number;
  projectToken: string;
}

/** Creates what the samples point at, through the API as a client would, and waits until the ingested events can be queried. */
export async function seedSampleObjects({
  baseUrl,
  owner,
  projectId,
  organizationId,
  projectToken,
}: Seeding): Promise<SampleObjects> {
  const api = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ results: Record<string, unknown> } & Record<string, unknown>> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { Authorization: owner, 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`seeding: ${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text);
  };
  const app = `/api/app/projects/${projectId}`;
  const idOf = (answer: { results: Record<string, unknown> }) => Number(answer.results.id ?? answer.results.funnel_id);

  const now = Date.now();
  const hourAgo = nowSeconds() - 3600;
  const events = [
    [EVENT, hourAgo, 'u1', { plan: 'pro' }],
    [PURCHASE, hourAgo + 600, 'u1', { amount: 30 }],
    [EVENT, hourAgo + 60, 'u2', { plan: 'free' }],
    [PURCHASE, hourAgo + 900, 'u2', { amount: 10 }],
    [EVENT, hourAgo + 120, 'u3', { plan: 'pro' }],
  ].map(([event, time, user, properties], i) => ({
    event,
    properties: { time, distinct_id: user, $insert_id: `seed-${i}`, ...(properties as object) },
  }));
  await api('POST', `/import?strict=1&project_id=${projectId}`, events);
  // A user profile for the profile query, sent as the SDKs send it (the project token in the payload).
  const profile = { $token: projectToken, $distinct_id: 'u1', $set: { plan: 'pro', $email: 'u1@example.com' } };
  const engaged = await api('POST', '/engage?verbose=1', `data=${encodeURIComponent(JSON.stringify([profile]))}`, {
    'Content-Type': 'application/x-www-form-urlencoded',
  });
  if (engaged.status !== 1) throw new Error(`seeding: /engage refused the profile: ${JSON.stringify(engaged)}`);

  await api('POST', `${app}/group-keys`, { name: GROUP_KEY });
  const member = await api('POST', `/api/app/organizations/${organizationId}/service-accounts`, {
    username: 'member',
    role: 'consumer',
    projects: [{ id: projectId, role: 'consumer' }],
  });
  const objects = {
    annotationId: idOf(
      await api('POST', `${app}/annotations`, { date: `${day(now)} 09:00:00`, description: 'release' }),
    ),
    lookupTableId: String(
      (await api('POST', `${app}/lookup-tables`, { name: 'Plans', mapped_to: { source: 'event', property: 'plan' } }))
        .results.id,
    ),
    bookmarkId: idOf(await api('POST', `${app}/bookmarks`, BOOKMARK)),
    funnelId: idOf(await api('POST', `${app}/funnels`, FUNNEL)),
    cohortId: idOf(await api('POST', `${app}/cohorts`, COHORT)),
    retentionId: idOf(await api('POST', `${app}/retention-reports`, RETENTION)),
    boardId: idOf(await api('POST', `${app}/boards`, { name: 'Walked board' })),
    memberAccountId: idOf(member),
  };
  const alertId = idOf(await api('POST', `${app}/alerts`, alert(objects.bookmarkId)));
  const warehouseSourceId = idOf(await api('POST', `${app}/warehouse-sources`, WAREHOUSE_SOURCE));
  const warehouseImportId = idOf(
    await api('POST', `${app}/warehouse-sources/imports/event-stream`, warehouseImport(warehouseSourceId, 'walked')),
  );

  // Daily pipelines over today only: nothing is due before tomorrow, so the walk never waits on an export.
  const pipeline = async (fields: Record<string, string>) =>
    (
      (await api('POST', `/api/2.0/nessie/pipeline/create?project_id=${projectId}`, {
        ...PIPELINE_FIELDS,
        from_date: day(now),
        to_date: day(now),
        ...fields,
      })) as unknown as { pipeline_names: string[] }
    ).pipeline_names[0];
  const pipelineName = await pipeline({});
  const disposable = {} as Record<SampleCaller, Disposable>;
  const schemas: unknown[] = [
    { entityType: 'event', name: SCHEMA_EVENT, schemaJson: { description: 'read by the walk' } },
    { entityType: 'profile', name: '$user', schemaJson: { properties: { plan: { type: 'string' } } } },
  ];
  for (const caller of SAMPLE_CALLERS) {
    const groupKey = `disposable-${caller}`;
    await api('POST', `${app}/group-keys`, { name: groupKey });
    const schemaName = `Disposable ${caller}`;
    schemas.push({ entityType: 'event', name: schemaName, schemaJson: { description: `deleted by ${caller}` } });
    disposable[caller] = {
      annotationId: idOf(
        await api('POST', `${app}/annotations`, { date: `${day(now)} 10:00:00`, description: `deleted by ${caller}` }),
      ),
      lookupTableId: String((await api('POST', `${app}/lookup-tables`, { name: `deleted by ${caller}` })).results.id),
      bookmarkId: idOf(await api('POST', `${app}/bookmarks`, { ...BOOKMARK, name: `deleted by ${caller}` })),
      funnelId: idOf(await api('POST', `${app}/funnels`, { ...FUNNEL, name: `deleted by ${caller}` })),
      cohortId: idOf(await api('POST', `${app}/cohorts`, { ...COHORT, name: `deleted by ${caller}` })),
      retentionId: idOf(await api('POST', `${app}/retention-reports`, { ...RETENTION, name: `deleted by ${caller}` })),
      boardId: idOf(await api('POST', `${app}/boards`, { name: `deleted by ${caller}` })),
      alertId: idOf(await api('POST', `${app}/alerts`, alert(objects.bookmarkId, `deleted by ${caller}`))),
      serviceAccountId: idOf(
        await api('POST', `/api/app/organizations/${organizationId}/service-accounts`, {
          username: `deleted-by-${caller}`,
          role: 'consumer',
        }),
      ),
      groupKey,
      schemaName,
      warehouseSourceId: idOf(
        await api('POST', `${app}/warehouse-sources`, { ...WAREHOUSE_SOURCE, name: `deleted by ${caller}` }),
      ),
      warehouseImportId: idOf(
        await api(
          'POST',
          `${app}/warehouse-sources/imports/event-stream`,
          warehouseImport(warehouseSourceId, `deleted by ${caller}`),
        ),
      ),
      // A distinct name per caller: another source, schema or trial flag each.
      pipelineName: await pipeline(DISPOSABLE_PIPELINES[SAMPLE_CALLERS.indexOf(caller)]),
    };
  }
  await api('POST', `${app}/schemas`, { entries: schemas });

  // Query samples must find data: wait until the writer has stored the imported events.
  await eventually(async () => {
    const names = await api('GET', `/api/query/events/names?project_id=${projectId}`);
    if (!JSON.stringify(names).includes(PURCHASE))
      throw new Error(`the imported events are not queryable yet: ${JSON.stringify(names)}`);
  });
  return {
    projectId,
    fromDate: day(now - 7 * 86_400_000),
    toDate: day(now),
    ...objects,
    alertId,
    warehouseSourceId,
    warehouseImportId,
    pipelineName,
    disposable,
  };
}
