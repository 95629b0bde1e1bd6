export interface WarehouseImportSettings {
  /** Rows read per page, at most, whatever the data (keyset on insert time and a unique key). */
  pageSize: number;
  /** How long a run holds its import; a dead worker's import runs again after it. */
  leaseSeconds: number;
  /** Declare the once-a-minute schedule that finds due imports (tests drive the worker by hand). */
  schedule: boolean;
  /** How often an idle worker looks for run jobs. */
  pollingIntervalSeconds: number;
}

export const DEFAULT_WAREHOUSE_IMPORT_SETTINGS: WarehouseImportSettings = {
  pageSize: 2000,
  leaseSeconds: 3600,
  schedule: true,
  pollingIntervalSeconds: 2,
};
export const WAREHOUSE_IMPORT_SETTINGS = Symbol('WAREHOUSE_IMPORT_SETTINGS');

/** Queue names (pg-boss): the minute tick, and one job per due run. */
export const WAREHOUSE_TICK_QUEUE = 'warehouse-imports.tick';
export const WAREHOUSE_RUN_QUEUE = 'warehouse-imports.run';
