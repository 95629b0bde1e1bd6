import { Migration, MigrationLedger } from './migration';
import { inVersionOrder, missingVersions, runMigrations, unknownVersions } from './run-migrations';

class MemoryLedger implements MigrationLedger<string[]> {
  readonly log: string[] = [];
  private readonly done = new Set<number>();
  async prepare(): Promise<void> {}
  async appliedVersions(): Promise<Set<number>> {
    return new Set(this.done);
  }
  async apply(migration: Migration<string[]>): Promise<void> {
    await migration.up(this.log);
    this.done.add(migration.version);
  }
}

const step = (version: number, name: string): Migration<string[]> => ({
  version,
  name,
  up: async (log) => void log.push(name),
});

describe('runMigrations', () => {
  it('applies pending migrations once, in order', async () => {
    const ledger = new MemoryLedger();
    const first = await runMigrations('test', ledger, [step(1, 'a'), step(2, 'b')]);
    const second = await runMigrations('test', ledger, [step(1, 'a'), step(2, 'b'), step(3, 'c')]);
    expect(first.applied).toEqual(['1_a', '2_b']);
    expect(second).toEqual({ engine: 'test', applied: ['3_c'], alreadyApplied: 2 });
    expect(ledger.log).toEqual(['a', 'b', 'c']);
  });

  it('refuses versions out of order', async () => {
    await expect(runMigrations('test', new MemoryLedger(), [step(2, 'b'), step(1, 'a')])).rejects.toThrow(
      'Migration versions must ascend: 2 then 1',
    );
  });

  it('names the failing migration', async () => {
    const broken: Migration<string[]> = { version: 1, name: 'broken', up: () => Promise.reject(new Error('boom')) };
    await expect(runMigrations('pg', new MemoryLedger(), [broken])).rejects.toThrow(
      'pg migration 1 (broken) failed: boom',
    );
  });

  it('refuses a ledger written by a newer release, running nothing', async () => {
    const ledger = new MemoryLedger();
    await runMigrations('pg', ledger, [step(1, 'a'), step(2, 'b'), step(3, 'c')]);
    const older = [step(1, 'a'), step(2, 'b')];
    await expect(runMigrations('pg', ledger, older)).rejects.toThrow(
      'pg schema holds migration 3, which this release does not know (its latest is 2): ' +
        'the data was written by a newer release.',
    );
    expect(ledger.log).toEqual(['a', 'b', 'c']);
    expect(await ledger.appliedVersions()).toEqual(new Set([1, 2, 3]));
  });

  it("puts the engine's reason first when the query layer wrapped it", async () => {
    const wrapped = new Error('Failed query: insert into t values ($1)\nparams: x', {
      cause: new Error('invalid input syntax for type integer: "x"'),
    });
    const broken: Migration<string[]> = { version: 1, name: 'broken', up: () => Promise.reject(wrapped) };
    await expect(runMigrations('pg', new MemoryLedger(), [broken])).rejects.toThrow(
      'pg migration 1 (broken) failed: invalid input syntax for type integer: "x" (Failed query: insert into t values ($1) params: x)',
    );
  });

  it('merges the lists of several owners into one version order, refusing a version claimed twice', () => {
    expect(inVersionOrder([step(1, 'a'), step(5, 'e')], [step(2, 'b'), step(4, 'd')]).map((m) => m.version)).toEqual([
      1, 2, 4, 5,
    ]);
    expect(() => inVersionOrder([step(1, 'a'), step(2, 'b')], [step(2, 'other')])).toThrow(
      'Migration versions must ascend: 2 then 2',
    );
  });

  it('tells the versions a ledger lacks (older schema) from the ones it has beyond the list (newer schema)', () => {
    const known = [step(1, 'a'), step(2, 'b'), step(3, 'c')];
    expect(missingVersions([1], known)).toEqual([2, 3]);
    expect(missingVersions([1, 2, 3, 4], known)).toEqual([]);
    expect(unknownVersions([1, 2, 3, 4], known)).toEqual([4]);
  });
});
