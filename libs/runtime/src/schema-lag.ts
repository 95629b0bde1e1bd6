import { ClickHouseMigrator } from '@analytics/clickhouse';
import { missingVersions } from '@analytics/migrations';
import { POSTGRES_MIGRATIONS, PostgresMigrator } from '@analytics/postgres';
import { CLICKHOUSE_MIGRATIONS } from './clickhouse-migrations';

/** How far one engine's migration ledger is behind this build. */
export interface LedgerLag {
  engine: 'Postgres' | 'ClickHouse';
  /** This build's migrations the ledger has not recorded, in order; empty when it is current. */
  missing: number[];
  /** This build's latest migration. */
  latest: number;
}

/**
 * The ledgers of the engines given (those a process opens) against this build's migrations. A ledger
 * ahead of this build is no lag: during a rollout the old pods read a schema the migration Job has
 * already moved on (migrations only add), and keep serving; applying migrations to such a ledger is
 * what runMigrations refuses.
 */
export async function schemaLag(postgres?: PostgresMigrator, clickhouse?: ClickHouseMigrator): Promise<LedgerLag[]> {
  const ledgers = [
    ...(postgres
      ? [{ engine: 'Postgres' as const, applied: () => postgres.applied(), known: POSTGRES_MIGRATIONS }]
      : []),
    ...(clickhouse
      ? [{ engine: 'ClickHouse' as const, applied: () => clickhouse.applied(), known: CLICKHOUSE_MIGRATIONS }]
      : []),
  ];
  return Promise.all(
    ledgers.map(async ({ engine, applied, known }) => ({
      engine,
      missing: missingVersions(await applied(), known),
      latest: known.at(-1)?.version ?? 0,
    })),
  );
}

/** One sentence per lagging ledger, or undefined when every ledger is current. */
export function describeLag(lags: readonly LedgerLag[]): string | undefined {
  const behind = lags.filter((lag) => lag.missing.length);
  if (!behind.length) return undefined;
  return behind
    .map(
      ({ engine, missing, latest }) =>
        `${engine} schema lacks migration ${missing.join(', ')} (this build's latest is ${latest}): run migrate`,
    )
    .join('; ');
}

export interface SchemaWaitOptions {
  timeoutMs: number;
  /** How long between two reads of the ledgers. */
  intervalMs: number;
}

/**
 * Reads the ledgers every `intervalMs` until none lags (resolves), or rejects once `timeoutMs` has
 * passed, saying what the last read found. An engine that cannot be read yet (a database still being
 * created) is waited for like a ledger that lags.
 */
export async function waitForSchema(read: () => Promise<LedgerLag[]>, options: SchemaWaitOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    let found: string;
    try {
      const lag = describeLag(await read());
      if (lag === undefined) return;
      found = lag;
    } catch (error) {
      found = `the ledgers cannot be read: ${(error as Error).message}`;
    }
    if (Date.now() + options.intervalMs > deadline)
      throw new Error(`the schema is still not this build's after ${options.timeoutMs} ms: ${found}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
  }
}
