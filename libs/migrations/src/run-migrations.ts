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

/**
 * The engine's own words first: a query layer may wrap the driver's error ("Failed query: …"), and an
 * operator needs the reason more than the statement, which follows it.
 */
function reason(error: unknown): string {
  const messages: string[] = [];
  for (let e = error; e instanceof Error; e = e.cause) messages.push(e.message.replace(/\s+/g, ' ').trim());
  if (!messages.length) return String(error);
  return messages.length === 1 ? messages[0] : `${messages.at(-1)} (${messages[0]})`;
}

/** The versions of a ledger that none of `migrations` has, in order: a newer release wrote them. */
export function unknownVersions(applied: Iterable<number>, migrations: readonly { version: number }[]): number[] {
  const known = new Set(migrations.map((migration) => migration.version));
  return [...applied].filter((version) => !known.has(version)).sort((a, b) => a - b);
}

/** The versions of `migrations` a ledger lacks, in order: the schema is older than this code. */
export function missingVersions(applied: Iterable<number>, migrations: readonly { version: number }[]): number[] {
  const done = new Set(applied);
  return migrations.map((migration) => migration.version).filter((version) => !done.has(version));
}

/**
 * Migrations only go forward: a ledger holding versions this code does not know was written by a newer
 * release, whose schema this code may misread or damage, so nothing runs and the process says why.
 */
function refuseNewerSchema<T>(engine: string, done: Set<number>, migrations: readonly Migration<T>[]): void {
  const unknown = unknownVersions(done, migrations);
  if (!unknown.length) return;
  const latest = migrations.at(-1)?.version ?? 0;
  throw new Error(
    `${engine} schema holds migration ${unknown.join(', ')}, which this release does not know (its latest is ${latest}): ` +
      'the data was written by a newer release. Run that release again, or restore the backup taken before the upgrade; ' +
      'migrations never run backwards.',
  );
}

/**
 * Applies, in order, every migration the ledger has not recorded yet. Running it twice changes nothing.
 * A ledger from a newer release (versions this list lacks) is refused before anything runs.
 */
export async function runMigrations<T>(
  engine: string,
  ledger: MigrationLedger<T>,
  migrations: readonly Migration<T>[],
): Promise<MigrationReport> {
  assertOrdered(migrations);
  await ledger.prepare();
  const done = await ledger.appliedVersions();
  refuseNewerSchema(engine, done, migrations);
  const applied: string[] = [];
  for (const migration of migrations) {
    if (done.has(migration.version)) continue;
    try {
      await ledger.apply(migration);
    } catch (error) {
      throw new Error(`${engine} migration ${migration.version} (${migration.name}) failed: ${reason(error)}`, {
        cause: error,
      });
    }
    applied.push(`${migration.version}_${migration.name}`);
  }
  return { engine, applied, alreadyApplied: done.size };
}
