import { Migration, MigrationLedger } from '@analytics/migrations';
import { sql } from 'drizzle-orm';
import { Database, selectRows } from './postgres';

export type PostgresMigration = Migration<Database>;

/** One statement per entry: PGlite's extended protocol runs a single statement per call. */
export function sqlMigration(version: number, name: string, statements: string[]): PostgresMigration {
  return {
    version,
    name,
    async up(tx) {
      for (const statement of statements) await tx.execute(sql.raw(statement));
    },
  };
}

/** Arbitrary constant naming our advisory lock: one migrator at a time across replicas. */
const MIGRATION_LOCK_KEY = 7_340_215;

export class PostgresMigrationLedger implements MigrationLedger<Database> {
  constructor(private readonly db: Database) {}

  async prepare(): Promise<void> {
    await this.db.execute(
      sql.raw(
        'create table if not exists schema_migrations (' +
          'version integer primary key, name text not null, applied_at timestamptz not null default now())',
      ),
    );
  }

  /** Whether the ledger table is there yet, without creating it (readers must not write). */
  async exists(): Promise<boolean> {
    const [row] = await selectRows<{ present: boolean }>(
      this.db,
      sql`select to_regclass('schema_migrations') is not null as present`,
    );
    return row?.present === true;
  }

  async appliedVersions(): Promise<Set<number>> {
    const rows = await selectRows<{ version: number }>(this.db, sql`select version from schema_migrations`);
    return new Set(rows.map((row) => Number(row.version)));
  }

  async apply(migration: PostgresMigration): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
      const db = tx as unknown as Database;
      const existing = await selectRows(db, sql`select 1 from schema_migrations where version = ${migration.version}`);
      if (existing.length) return; // another replica applied it while we waited for the lock
      await migration.up(db);
      await tx.execute(
        sql`insert into schema_migrations (version, name) values (${migration.version}, ${migration.name})`,
      );
    });
  }
}
