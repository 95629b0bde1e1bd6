import { invalidField } from './pipeline-error';
import { day, Fields, flag, matching, oneOf, required, text } from './pipeline-fields';
import {
  BucketDestination,
  PIPELINE_TYPES,
  PipelineDefinition,
  PipelineType,
  pipelineName,
  Warehouse,
} from './pipeline-definition';

/** A trial pipeline exports at most this many days from its `from_date`. */
export const TRIAL_DAYS = 30;

const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const COMMON = [
  'project_id',
  'type',
  'trial',
  'schema_type',
  'data_source',
  'sync',
  'from_date',
  'to_date',
  'frequency',
  'data_format',
];
const KEYS = ['s3_endpoint', 's3_access_key_id', 's3_secret_access_key', 's3_force_path_style'];
const S3 = ['s3_bucket', 's3_region', 's3_prefix', 's3_role', ...KEYS];
const GCS = ['gcs_bucket', 'gcs_region', 'gcs_prefix', ...KEYS];
/** The fields each type takes beyond the common ones; anything else is refused, so a typo never goes unnoticed. */
const TYPE_FIELDS: Record<PipelineType, string[]> = {
  's3-raw': S3,
  'gcs-raw': GCS,
  'azure-raw': [],
  bigquery: ['bq_region', 'gcp_project', 'bq_dataset_name', ...GCS],
  warehouse_a: ['wha_region', 'wha_cloud_project', 'wha_dataset_name', ...GCS],
  snowflake: ['snowflake_share_with', 'snowflake_region', 'snowflake_prefix', ...S3],
  warehouse_b: ['whb_share_with', 'whb_region', 'whb_prefix', ...S3],
};

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const REGION = /^[A-Za-z0-9_-]{1,64}$/;
/** Object-key safe: the prefix becomes part of every object name and of ClickHouse's s3() URL. */
const PREFIX = /^([A-Za-z0-9_=-][A-Za-z0-9._=-]*\/)*[A-Za-z0-9_=-][A-Za-z0-9._=-]*\/?$/;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const ACCESS_KEY = /^[\x21-\x7e]{3,256}$/;

function endpoint(fields: Fields): string | undefined {
  const value = text(fields, 's3_endpoint');
  if (value === undefined || value === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidField('s3_endpoint', `must be an http(s)://host[:port] URL, got "${value}"`);
  }
  if (
    !['http:', 'https:'].includes(url.protocol) ||
    url.pathname !== '/' ||
    url.search ||
    url.hash ||
    url.username ||
    url.password ||
    value.includes("'")
  ) {
    throw invalidField(
      's3_endpoint',
      `must be an http(s)://host[:port] URL without path, query or credentials, got "${value}"`,
    );
  }
  return url.origin;
}

function bucket(
  fields: Fields,
  kind: 's3' | 'gcs',
  type: PipelineType,
): { destination: BucketDestination; secret?: string } {
  const accessKeyId = matching(fields, 's3_access_key_id', ACCESS_KEY, '3 to 256 printable characters', false);
  const secret = matching(fields, 's3_secret_access_key', ACCESS_KEY, '3 to 256 printable characters', false);
  if (Boolean(accessKeyId) !== Boolean(secret))
    throw invalidField(
      accessKeyId ? 's3_secret_access_key' : 's3_access_key_id',
      'is required with the other key (both or neither)',
    );
  // GCS has no default credential chain for its XML API: HMAC keys are the only way in.
  if (kind === 'gcs' && !accessKeyId)
    throw invalidField('s3_access_key_id', `is required for ${type} (a GCS HMAC key pair)`);
  const prefix =
    matching(
      fields,
      `${kind}_prefix`,
      PREFIX,
      'letters, digits, ".", "_", "=", "-" in "/"-separated segments',
      false,
    ) ?? '';
  const end = endpoint(fields);
  return {
    destination: {
      bucket: matching(fields, `${kind}_bucket`, BUCKET, 'a bucket name (3 to 63 of a-z, 0-9, ".", "-")', true)!,
      region: matching(fields, `${kind}_region`, REGION, 'a region name', kind === 's3') ?? 'auto',
      prefix: prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`,
      endpoint: end ?? (kind === 'gcs' ? 'https://storage.googleapis.com' : undefined),
      forcePathStyle: flag(fields, 's3_force_path_style', kind === 'gcs'),
      accessKeyId,
      role: kind === 's3' ? text(fields, 's3_role') || undefined : undefined,
    },
    secret,
  };
}

function warehouse(fields: Fields, type: PipelineType, projectId: number): Warehouse | undefined {
  const id = (name: string, isRequired = false) =>
    matching(fields, name, IDENTIFIER, 'letters, digits and "_", not starting with a digit', isRequired);
  const region = (name: string) => matching(fields, name, REGION, 'a region name', true)!;
  switch (type) {
    case 'bigquery':
      return {
        kind: 'bigquery',
        region: region('bq_region'),
        cloudProject: text(fields, 'gcp_project') || undefined,
        dataset: id('bq_dataset_name') ?? `mixpanel_${projectId}`,
      };
    case 'warehouse_a':
      return {
        kind: 'bigquery',
        region: region('wha_region'),
        cloudProject: text(fields, 'wha_cloud_project') || undefined,
        dataset: id('wha_dataset_name') ?? `mixpanel_${projectId}`,
      };
    case 'snowflake':
      return {
        kind: 'snowflake',
        region: region('snowflake_region'),
        shareWith: id('snowflake_share_with', true)!,
        tablePrefix: id('snowflake_prefix') ?? '',
      };
    case 'warehouse_b':
      return {
        kind: 'snowflake',
        region: region('whb_region'),
        shareWith: id('whb_share_with', true)!,
        tablePrefix: id('whb_prefix') ?? '',
      };
    default:
      return undefined;
  }
}

export interface CreatePipelineCommand {
  /** One pipeline, or a trial's two (events and people) when it names no `data_source`. */
  definitions: PipelineDefinition[];
  /** The destination's secret key, to be sealed before it is stored. */
  secret?: string;
}

/**
 * The real API's trial: 30 days of events and people from yesterday, daily, without sync. Each
 * default gives way to a field the request sets; `to_date` is capped at `from_date` + 29 days.
 */
function trialDays(fields: Fields, today: string): { fromDate: string; toDate: string } {
  const fromDate = day(fields, 'from_date', true) ?? addDays(today, -1);
  const last = addDays(fromDate, TRIAL_DAYS - 1);
  const toDate = day(fields, 'to_date', true);
  return { fromDate, toDate: toDate === undefined || toDate > last ? last : toDate };
}

/** Validates `POST /create`'s fields (every failure names its field); `today` is the current UTC day. */
export function parseCreatePipeline(fields: Fields, projectId: number, today: string): CreatePipelineCommand {
  const type = oneOf(fields, 'type', PIPELINE_TYPES);
  const allowed = new Set([...COMMON, ...TYPE_FIELDS[type]]);
  const unknown = Object.keys(fields).find((name) => !allowed.has(name));
  if (unknown) throw invalidField(unknown, `is not a field of ${type} pipelines`);
  if (type === 'azure-raw')
    throw invalidField('type', 'azure-raw is not available here: the installation writes to S3-compatible stores only');
  const trial = flag(fields, 'trial', false);
  const { fromDate, toDate } = trial
    ? trialDays(fields, today)
    : { fromDate: day(fields, 'from_date', false)!, toDate: day(fields, 'to_date', true) };
  if (toDate !== undefined && toDate < fromDate)
    throw invalidField('to_date', `${toDate} is before from_date ${fromDate}`);
  if (fromDate > today) throw invalidField('from_date', 'cannot be later than today');
  const kind = ['gcs-raw', 'bigquery', 'warehouse_a'].includes(type) ? 'gcs' : 's3';
  const { destination, secret } = bucket(fields, kind, type);
  const sources =
    trial && !text(fields, 'data_source')
      ? (['events', 'people'] as const)
      : [oneOf(fields, 'data_source', ['events', 'people'] as const, 'events')];
  const common = {
    trial,
    type,
    schemaType: oneOf(fields, 'schema_type', ['monoschema', 'multischema'] as const, 'monoschema'),
    frequency: oneOf(fields, 'frequency', ['hourly', 'daily'] as const, 'daily'),
  };
  const rest = {
    projectId,
    dataFormat: oneOf(fields, 'data_format', ['json', 'parquet'] as const, 'json'),
    sync: flag(fields, 'sync', !trial),
    fromDate,
    toDate,
    destination,
    warehouse: warehouse(fields, type, projectId),
  };
  const definitions = sources.map((dataSource): PipelineDefinition => ({
    ...rest,
    name: pipelineName({ ...common, dataSource }),
    ...common,
    dataSource,
  }));
  return { definitions, secret };
}

/** `name` of pause/resume/cancel/status/timeline. */
export function pipelineNameField(fields: Fields): string {
  const name = required(fields, 'name');
  if (name.length > 200) throw invalidField('name', 'is longer than 200 characters');
  return name;
}
