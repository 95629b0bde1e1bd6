/** What a pipeline is: the fields of `POST /create`, validated, in the shape the rest of the lib uses. */

export const PIPELINE_TYPES = [
  's3-raw',
  'gcs-raw',
  'azure-raw',
  'bigquery',
  'snowflake',
  'warehouse_a',
  'warehouse_b',
] as const;
export type PipelineType = (typeof PIPELINE_TYPES)[number];
export type SchemaType = 'monoschema' | 'multischema';
export type DataSource = 'events' | 'people';
export type Frequency = 'hourly' | 'daily';
export type DataFormat = 'json' | 'parquet';
export type PipelineState = 'active' | 'paused' | 'cancelled';

/** An S3-compatible bucket (AWS S3, GCS's XML API with HMAC keys, MinIO, s3rver). */
export interface BucketDestination {
  bucket: string;
  region: string;
  /** Empty or ending in `/`. */
  prefix: string;
  /** `http(s)://host[:port]`; unset = AWS (or GCS for gcs buckets). */
  endpoint?: string;
  forcePathStyle: boolean;
  accessKeyId?: string;
  /** An IAM role the real API assumes; kept and shown, not assumed here (docs/pipelines.md). */
  role?: string;
}

/** The warehouse a bigquery/snowflake-kind pipeline loads into from its staged files. */
export type Warehouse =
  | { kind: 'bigquery'; region: string; cloudProject?: string; dataset: string }
  | { kind: 'snowflake'; region: string; shareWith: string; tablePrefix: string };

export interface PipelineDefinition {
  projectId: number;
  name: string;
  type: PipelineType;
  trial: boolean;
  schemaType: SchemaType;
  dataSource: DataSource;
  frequency: Frequency;
  dataFormat: DataFormat;
  sync: boolean;
  /** Inclusive UTC days, `YYYY-MM-DD`; no `toDate` = continuous. */
  fromDate: string;
  toDate?: string;
  destination: BucketDestination;
  warehouse?: Warehouse;
}

/** A stored pipeline: its definition, state and the destination secret (sealed at rest, never answered). */
export interface Pipeline extends PipelineDefinition {
  id: number;
  state: PipelineState;
  createdAt: Date;
}

/** The real API's name: `[trial-]<source>-<frequency>-<type>-<schema>`. */
export function pipelineName(
  d: Pick<PipelineDefinition, 'trial' | 'dataSource' | 'frequency' | 'type' | 'schemaType'>,
): string {
  return `${d.trial ? 'trial-' : ''}${d.dataSource}-${d.frequency}-${d.type}-${d.schemaType}`;
}

/**
 * The table (and prefix) of an event in multischema pipelines, cleaned as the real API does:
 * lowercase, a leading `$` becomes `mp_`, any other character outside `[a-z0-9_]` becomes `_`.
 */
export function cleanEventName(event: string): string {
  const lower = event.toLowerCase().replace(/^\$/, 'mp_');
  const cleaned = lower.replace(/[^a-z0-9_]/g, '_');
  return cleaned === '' ? '_' : cleaned;
}

export const MASTER_EVENT_TABLE = 'mp_master_event';
export const PEOPLE_TABLE = 'mp_people_data';
