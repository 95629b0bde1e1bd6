/** Rows of the warehouse-import tables as the lib uses them (Postgres migration 7). */
import { sql } from 'drizzle-orm';
import { ColumnMapping, ImportKind, SyncMode, TableParams } from './import-definition';

export interface StoredSource {
  id: number;
  projectId: number;
  name: string;
  type: string;
  connectionPublic: Record<string, unknown>;
  connectionSealed: string;
  createdAt: Date;
}

export type RunStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';

export interface ImportRun {
  id: number;
  importId: number;
  status: RunStatus;
  trigger: 'schedule' | 'manual';
  startedAt: Date;
  finishedAt: Date | undefined;
  rowsRead: number;
  rowsImported: number;
  rowsFailed: number;
  error: string | undefined;
}

export interface StoredImport {
  id: number;
  projectId: number;
  sourceId: number;
  kind: ImportKind;
  name: string;
  tableParams: TableParams;
  mapping: ColumnMapping;
  syncMode: SyncMode;
  runEveryNs: number;
  paused: boolean;
  watermark: string | undefined;
  nextRunAt: Date | undefined;
  manualRequested: boolean;
  succeededOnce: boolean;
  deleting: boolean;
  deleteData: boolean;
  createdAt: Date;
  lastRun: ImportRun | undefined;
}

/** A row as the Postgres driver returns it (timestamps as Date or text, json as object or text). */
export type Row = Readonly<Record<string, unknown>>;
const json = <T>(value: unknown): T => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T));
const date = (value: unknown) => (value === null || value === undefined ? undefined : new Date(value as string | Date));
const text = <T extends string = string>(value: unknown): T => value as T;
const optionalText = (value: unknown) => (value === null || value === undefined ? undefined : (value as string));
export const iso = (value: Date) => value.toISOString();

export const toSource = (r: Row): StoredSource => ({
  id: Number(r.id),
  projectId: Number(r.project_id),
  name: text(r.name),
  type: text(r.type),
  connectionPublic: json(r.connection_public),
  connectionSealed: text(r.connection_sealed),
  createdAt: date(r.created_at)!,
});

export const toRun = (r: Row): ImportRun => ({
  id: Number(r.id),
  importId: Number(r.import_id),
  status: text<RunStatus>(r.status),
  trigger: text<ImportRun['trigger']>(r.trigger),
  startedAt: date(r.started_at)!,
  finishedAt: date(r.finished_at),
  rowsRead: Number(r.rows_read),
  rowsImported: Number(r.rows_imported),
  rowsFailed: Number(r.rows_failed),
  error: optionalText(r.error),
});

export function toImport(r: Row): StoredImport {
  const mapping = json<{ table_params: TableParams; columns: ColumnMapping }>(r.mapping);
  const lastRun = r.last_run ? json<Row>(r.last_run) : undefined;
  return {
    id: Number(r.id),
    projectId: Number(r.project_id),
    sourceId: Number(r.source_id),
    kind: text<ImportKind>(r.kind),
    name: text(r.name),
    tableParams: mapping.table_params,
    mapping: mapping.columns,
    syncMode: text<SyncMode>(r.sync_mode),
    runEveryNs: Number(r.run_every),
    paused: Boolean(r.paused),
    watermark: optionalText(r.watermark),
    nextRunAt: date(r.next_run_at),
    manualRequested: Boolean(r.manual_requested),
    succeededOnce: Boolean(r.succeeded_once),
    deleting: Boolean(r.deleting),
    deleteData: Boolean(r.delete_data),
    createdAt: date(r.created_at)!,
    lastRun: lastRun ? toRun(lastRun) : undefined,
  };
}

/** An import's columns and its last run. */
export const IMPORT_COLUMNS = sql`i.*, (select row_to_json(r) from warehouse_import_runs r where r.import_id = i.id order by r.id desc limit 1) as last_run`;
