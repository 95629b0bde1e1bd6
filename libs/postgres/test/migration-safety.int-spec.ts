import { createTestDatabase, postgresServerAvailable, PostgresKind, TestResource } from '@analytics/testing';
import { sql } from 'drizzle-orm';
import { Postgres, POSTGRES_MIGRATIONS, PostgresMigrator, selectRows } from '../src';
import { PostgresMigration } from '../src/postgres-migration';

const kinds: PostgresKind[] = postgresServerAvailable() ? ['server', 'pglite'] : ['pglite'];
const latest = POSTGRES_MIGRATIONS.at(-1)!.version;

/** A next migration that changes two things, then fails on a third (a real Postgres error). */
const halfDone = (fails: boolean): PostgresMigration => ({
  version: latest + 1,
  name: 'half_done',
  async up(db) {
    await db.execute(sql.raw('create table half_done (id integer primary key)'));
    await db.execute(sql.raw('alter table organizations add column half_done text'));
    await db.execute(sql.raw(`insert into half_done (id) values (${fails ? "'not a number'" : '1'})`));
  },
});

describe.each(kinds)('Postgres migrations are safe to re-run and all-or-nothing (%s)', (kind) => {
  let resource: TestResource;
  let postgres: Postgres;
  let migrator: PostgresMigrator;
  const rows = <T>(query: string) => selectRows<T>(postgres.db, sql.raw(query));
  /** The ledger, every table and column, and the rows of the tables the test wrote. */
  const state = async () => ({
    ledger: await rows('select version, name, applied_at from schema_migrations order by version'),
    columns: await rows(
      "select table_name, column_name, data_type from information_schema.columns where table_schema = 'public' " +
        'order by table_name, column_name',
    ),
    organizations: await rows('select * from organizations order by id'),
    projects: await rows('select id, organization_id, name, token from projects order by id'),
  });
  const addProject = async (name: string) => {
    const [organization] = await rows<{ id: number }>(
      `insert into organizations (name) values ('${name}') returning id`,
    );
    await postgres.db.execute(
      sql`insert into projects (organization_id, name, token, secret_hash, secret_lookup)
          values (${organization.id}, ${name}, ${`token-${name}`}, 'hash', ${`lookup-${name}`})`,
    );
  };

  beforeAll(async () => {
    resource = await createTestDatabase(kind);
    postgres = await Postgres.connect(resource.url);
    migrator = new PostgresMigrator(postgres);
    await migrator.migrate();
    await addProject('before');
  });
  afterAll(async () => {
    await postgres.close();
    await resource.dispose();
  });

  it('re-running every migration on an up-to-date database changes nothing', async () => {
    const before = await state();
    expect(await migrator.migrate()).toEqual({ engine: 'Postgres', applied: [], alreadyApplied: latest });
    expect(await state()).toEqual(before);
  });

  it('a migration failing midway leaves the ledger and schema at the previous version, which keeps working', async () => {
    const before = await state();
    await expect(migrator.migrate([...POSTGRES_MIGRATIONS, halfDone(true)])).rejects.toThrow(
      new RegExp(
        `^Postgres migration ${latest + 1} \\(half_done\\) failed: invalid input syntax for type integer.*\\(Failed query: insert into half_done`,
      ),
    );
    expect(await state()).toEqual(before);
    expect(await rows("select to_regclass('half_done') as t")).toEqual([{ t: null }]);

    await addProject('after');
    expect((await state()).projects.map((p: any) => p.name)).toEqual(['before', 'after']);
  });

  it('the mended migration then applies, once', async () => {
    const report = await migrator.migrate([...POSTGRES_MIGRATIONS, halfDone(false)]);
    expect(report.applied).toEqual([`${latest + 1}_half_done`]);
    expect(await rows('select id from half_done')).toEqual([{ id: 1 }]);
    expect((await migrator.migrate([...POSTGRES_MIGRATIONS, halfDone(false)])).applied).toEqual([]);
  });

  it('refuses a ledger written by a newer release before running anything', async () => {
    const before = await state();
    await expect(migrator.migrate()).rejects.toThrow(
      `Postgres schema holds migration ${latest + 1}, which this release does not know (its latest is ${latest})`,
    );
    expect(await state()).toEqual(before);
  });
});
