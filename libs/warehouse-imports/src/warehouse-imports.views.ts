import { ImportRun, StoredImport, StoredSource } from './warehouse-imports.repository';

/** A source as the API shows it: never its credentials. */
export const sourceJson = (source: StoredSource) => ({
  id: source.id,
  name: source.name,
  type: source.type,
  connection: source.connectionPublic,
  created: source.createdAt.toISOString(),
});

export const runJson = (run: ImportRun) => ({
  id: run.id,
  status: run.status,
  trigger: run.trigger,
  started_at: run.startedAt.toISOString(),
  finished_at: run.finishedAt?.toISOString() ?? null,
  rows_read: run.rowsRead,
  rows_imported: run.rowsImported,
  rows_failed: run.rowsFailed,
  error: run.error ?? null,
});

/** `status` is the last run's (PENDING before the first); `paused` says whether runs start at all. */
export const importJson = (item: StoredImport) => ({
  id: String(item.id),
  name: item.name,
  type: item.kind,
  warehouse_source_id: item.sourceId,
  status: item.lastRun?.status ?? 'PENDING',
  paused: item.paused,
  run_every: item.runEveryNs,
  sync_mode: item.syncMode,
  table_params: item.tableParams,
  ...item.mapping,
  last_run: item.lastRun ? runJson(item.lastRun) : null,
  created: item.createdAt.toISOString(),
});
