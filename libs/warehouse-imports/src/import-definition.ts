import { SourceType } from './warehouse-source';
import { invalid } from './warehouse-imports-error';

export const IMPORT_KINDS = ['event-stream', 'people', 'groups'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export const SYNC_MODES = ['time_based', 'full_sync', 'one_time'] as const;
export type SyncMode = (typeof SYNC_MODES)[number];

/** The spec's only schedules, in nanoseconds: API-triggered only, hourly, daily, weekly. */
export const RUN_EVERY_NS = [0, 3_600_000_000_000, 86_400_000_000_000, 604_800_000_000_000] as const;
export const DEFAULT_RUN_EVERY_NS = 3_600_000_000_000;

/** Where the rows come from: a table (optionally in a schema), or a query over the source. */
export type TableParams = { table_name: string; schema?: string } | { query: string };

/** Which column is what; the names are the real product's request fields. */
export interface ColumnMapping {
  time_column_name?: string;
  event_name?: string;
  event_column_name?: string;
  user_column_name?: string;
  device_column_name?: string;
  insert_time_column_name?: string;
  /** Ours: a column unique per row, the tiebreak of the reading order (docs/warehouse-imports.md). */
  unique_key_column_name?: string;
  json_properties_column_name?: string;
  group_key?: string;
  group_id_column_name?: string;
}

export interface ImportDefinition {
  kind: ImportKind;
  sourceId: number;
  name: string;
  tableParams: TableParams;
  mapping: ColumnMapping;
  syncMode: SyncMode;
  runEveryNs: number;
}

const COLUMN_FIELDS = [
  'time_column_name',
  'event_column_name',
  'user_column_name',
  'device_column_name',
  'insert_time_column_name',
  'unique_key_column_name',
  'json_properties_column_name',
  'group_id_column_name',
] as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A name that reaches the source as a quoted identifier: Postgres's length, no NUL. */
function identifier(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || value.length > 63 || value.includes('\0'))
    throw invalid(`${field} must be a column or table name of at most 63 characters`);
  return value;
}

export function parseRunEvery(value: unknown): number {
  const ns = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (!RUN_EVERY_NS.includes(ns as (typeof RUN_EVERY_NS)[number])) {
    throw invalid(
      `run_every must be one of ${RUN_EVERY_NS.join(', ')} (nanoseconds: API-triggered only, hourly, daily, weekly)`,
    );
  }
  return ns as number;
}

function parseTableParams(value: unknown): TableParams {
  if (!isObject(value)) throw invalid('table_params is required: {"table_name", "schema"} or {"query"}');
  if (value.query !== undefined) {
    if (typeof value.query !== 'string' || !value.query.trim() || value.query.length > 65_536)
      throw invalid('table_params.query must be a non-empty SQL query');
    if (value.table_name !== undefined) throw invalid('table_params takes a table_name or a query, not both');
    return { query: value.query };
  }
  const table = identifier(value.table_name, 'table_params.table_name');
  if (!table) throw invalid('table_params.table_name (or table_params.query) is required');
  const schema = identifier(value.schema ?? value.dataset, 'table_params.schema');
  return schema ? { table_name: table, schema } : { table_name: table };
}

/** The body of `POST …/imports/{kind}`, checked; `sourceType` decides which sync modes exist. */
export function parseImportDefinition(kind: ImportKind, body: unknown, sourceType: SourceType): ImportDefinition {
  if (!isObject(body)) throw invalid('the body must be a JSON object');
  const { name } = body;
  if (typeof name !== 'string' || !name.trim() || name.length > 255)
    throw invalid('name is required: a string of at most 255 characters');
  const syncMode = body.sync_mode ?? 'time_based';
  if (syncMode === 'mirror_mode') {
    if (sourceType === 'postgres') throw invalid('sync_mode mirror_mode is not supported for Postgres sources');
    throw invalid('sync_mode mirror_mode is not supported yet');
  }
  if (!SYNC_MODES.includes(syncMode as SyncMode)) throw invalid(`sync_mode must be one of ${SYNC_MODES.join(', ')}`);
  const mapping: ColumnMapping = {};
  for (const field of COLUMN_FIELDS) {
    const column = identifier(body[field], field);
    if (column) mapping[field] = column;
  }
  if (body.event_name !== undefined) {
    if (typeof body.event_name !== 'string' || !body.event_name || body.event_name.length > 255)
      throw invalid('event_name must be a non-empty string');
    mapping.event_name = body.event_name;
  }
  if (body.group_key !== undefined) {
    if (typeof body.group_key !== 'string' || !body.group_key) throw invalid('group_key must be a non-empty string');
    mapping.group_key = body.group_key;
  }
  requireColumns(kind, syncMode as SyncMode, mapping);
  return {
    kind,
    sourceId: parseSourceId(body.warehouse_source_id),
    name,
    tableParams: parseTableParams(body.table_params),
    mapping,
    syncMode: syncMode as SyncMode,
    runEveryNs: body.run_every === undefined ? DEFAULT_RUN_EVERY_NS : parseRunEvery(body.run_every),
  };
}

function parseSourceId(value: unknown): number {
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (!Number.isSafeInteger(id) || (id as number) < 1)
    throw invalid('warehouse_source_id is required: the id of a warehouse source of this project');
  return id as number;
}

function requireColumns(kind: ImportKind, syncMode: SyncMode, mapping: ColumnMapping): void {
  const need = (field: keyof ColumnMapping, why = '') => {
    if (!mapping[field]) throw invalid(`${field} is required${why}`);
  };
  if (syncMode === 'time_based')
    need(
      'insert_time_column_name',
      ' with sync_mode time_based: rows are read in its order from the last one imported',
    );
  if (kind === 'event-stream') {
    need('time_column_name');
    if (!mapping.event_name === !mapping.event_column_name)
      throw invalid('exactly one of event_name (a constant) and event_column_name is required');
    if (!mapping.user_column_name && !mapping.device_column_name)
      throw invalid('user_column_name or device_column_name is required');
  } else if (kind === 'people') {
    need('user_column_name');
  } else {
    need('group_key');
    need('group_id_column_name');
  }
}
