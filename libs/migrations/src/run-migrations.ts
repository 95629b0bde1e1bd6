import { Migration, MigrationLedger, MigrationReport } from './migration';

export function assertOrdered<T>(migrations: readonly Migration<T>[]): void {
  migrations.forEach((migration, i) => {
    if (!Number.isInteger(migration.version) || migration.version <= 0) {
      throw new Error(`Migration "${migration.name}" has an invalid version ${migration.version}`);
    }
    if (i > 0 && migration.version <= migrations[i - 1].version) {
      throw new Error(`Migration versions must ascend: ${migrations[i - 1].version} then ${migration.version}`);
    }
  });
}

/**
 * One engine's ledger from the lists of the libs that own its tables: every migration, in version
 * order. A version two owners both claim is refused, as runMigrations refuses any repeat.
 */
export function inVersionOrder<T>(...owned: (readonly Migration<T>[])[]): readonly Migration<T>[] {
  const ledger = owned.flat().sort((a, b) => a.version - b.version);
  assertOrdered(ledger);
  return ledger;
}

/** Applies, in order, every migration the ledger has not recorded yet. Running it twice changes nothing. */
export async function runMigrations<T>(
  engine: string,
  ledger: MigrationLedger<T>,
  migrations: readonly Migration<T>[],
): Promise<MigrationReport> {
  assertOrdered(migrations);
  await ledger.prepare();
  const done = await ledger.appliedVersions();
  const applied: string[] = [];
  for (const migration of migrations) {
    if (done.has(migration.version)) continue;
    try {
      await ledger.apply(migration);
    } catch (error) {
      throw new Error(
        `${engine} migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
    applied.push(`${migration.version}_${migration.name}`);
  }
  return { engine, applied, alreadyApplied: done.size };
}
