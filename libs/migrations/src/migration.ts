/** One versioned schema change. Versions are unique and applied in ascending order, each once. */
export interface Migration<TContext> {
  readonly version: number;
  readonly name: string;
  up(context: TContext): Promise<void>;
}

/** Where an engine records which migrations ran (a table in that engine). */
export interface MigrationLedger<TContext> {
  /** Creates the ledger itself; must be idempotent. */
  prepare(): Promise<void>;
  appliedVersions(): Promise<Set<number>>;
  /** Runs the migration and records it; engines with transactions do both atomically. */
  apply(migration: Migration<TContext>): Promise<void>;
}

export interface MigrationReport {
  engine: string;
  applied: string[];
  alreadyApplied: number;
}
