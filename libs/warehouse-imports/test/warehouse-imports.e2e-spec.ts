import { IngestService } from '@analytics/ingest';
import { Postgres } from '@analytics/postgres';
import { sql } from 'drizzle-orm';
import { eventually } from '@analytics/testing';
import { CredentialsCipher } from '../src/credentials-cipher';
import { WarehouseHarness } from './warehouse-harness';

const HOUR_NS = 3_600_000_000_000;
const HOUR_MS = 3_600_000;

describe('warehouse imports from a Postgres warehouse', () => {
  let h: WarehouseHarness;
  let project: { id: number; token: string; secret: string };
  let sourceId: number;
  const app = (rest: string, projectId = project.id) => `/api/app/projects/${projectId}/warehouse-sources${rest}`;
  const iso = (ms: number) => new Date(ms).toISOString();
  const history = async (importId: string) => (await h.call('GET', app(`/imports/${importId}/history`))).body.results;

  /** `n` order rows, inserted at `insertedAt` (several rows share an insert time, as batch loads do). */
  const addOrders = async (
    rows: { user: string | null; ts: number | null; insertedAt: number; kind?: string; amount?: number }[],
  ) => {
    for (const row of rows) {
      await h.warehouseSql(
        'insert into shop.orders (kind, ts, user_id, device, props, amount, inserted_at) values ($1, $2, $3, $4, $5, $6, $7)',
        [
          row.kind ?? 'Ordered',
          row.ts === null ? null : iso(row.ts),
          row.user,
          `device-${row.user ?? 'none'}`,
          JSON.stringify({ plan: 'pro', coupon: { code: 'X1' } }),
          row.amount ?? 10,
          iso(row.insertedAt),
        ],
      );
    }
  };

  const eventImport = async (name: string, extra: Record<string, unknown> = {}) => {
    const created = await h.call('POST', app('/imports/event-stream'), {
      warehouse_source_id: sourceId,
      name,
      table_params: { table_name: 'orders', schema: 'shop' },
      time_column_name: 'ts',
      event_column_name: 'kind',
      user_column_name: 'user_id',
      device_column_name: 'device',
      insert_time_column_name: 'inserted_at',
      json_properties_column_name: 'props',
      ...extra,
    });
    expect(created).toEqual({ status: 200, body: { status: 'ok', results: { id: expect.any(String) } } });
    return created.body.results.id as string;
  };

  beforeAll(async () => {
    h = await WarehouseHarness.start(3);
    project = await h.project('warehouse');
    await h.warehouseSql('create schema shop');
    await h.warehouseSql(
      `create table shop.orders (id serial primary key, kind text, ts timestamptz, user_id text, device text, props jsonb, amount int, inserted_at timestamptz not null)`,
    );
    await h.warehouseSql(
      `create table people (user_id text primary key, plan text, seats int, updated_at timestamptz not null)`,
    );
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('creates a Postgres source after a connection test, and never shows its credentials', async () => {
    const refused = await h.call('POST', app(''), {
      name: 'nowhere',
      type: 'postgres',
      connection: { ...h.connection, database: 'no_such_database_here' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/connection test failed: database "no_such_database_here" does not exist/);
    const closed = await h.call('POST', app(''), {
      name: 'closed',
      type: 'postgres',
      connection: { ...h.connection, port: 1 },
    });
    expect(closed.status).toBe(400);
    expect(closed.body.error).toMatch(/connection test failed: .*ECONNREFUSED/);
    expect((await h.call('POST', app(''), { name: 'x', type: 'oracle', connection: {} })).status).toBe(400);

    const created = await h.call('POST', app(''), { name: 'warehouse', type: 'postgres', connection: h.connection });
    expect(created.status).toBe(201);
    sourceId = created.body.results.id;
    const { password: _password, ...shown } = h.connection;
    expect(created.body.results).toEqual({
      id: sourceId,
      name: 'warehouse',
      type: 'postgres',
      connection: shown,
      created: expect.any(String),
    });
    const listed = await h.call('GET', app(''));
    expect(JSON.stringify(listed.body)).not.toContain('not-needed-under-trust');
    const stored = await h.storedSource(sourceId);
    expect(JSON.stringify(stored)).not.toContain('not-needed-under-trust');
    expect(String(stored.connection_sealed)).toMatch(/^v1\$/);
    // Another project sees nothing of it.
    const other = await h.project('other');
    expect((await h.call('GET', app(`/${sourceId}`, other.id))).status).toBe(404);
  });

  it('refuses bad imports with 400: mirror_mode on Postgres, run_every outside the four values, an unknown source', async () => {
    const base = {
      warehouse_source_id: sourceId,
      name: 'bad',
      table_params: { table_name: 'orders' },
      time_column_name: 'ts',
      event_name: 'E',
      user_column_name: 'user_id',
      insert_time_column_name: 'inserted_at',
    };
    const mirror = await h.call('POST', app('/imports/event-stream'), { ...base, sync_mode: 'mirror_mode' });
    expect(mirror).toEqual({
      status: 400,
      body: { status: 'error', error: 'sync_mode mirror_mode is not supported for Postgres sources' },
    });
    expect((await h.call('POST', app('/imports/event-stream'), { ...base, run_every: 60_000_000_000 })).status).toBe(
      400,
    );
    expect((await h.call('POST', app('/imports/event-stream'), { ...base, warehouse_source_id: 999_999 })).status).toBe(
      400,
    );
  });

  it('imports every row once, counts bad rows as failed, and brings later rows (only them) on the next run', async () => {
    const now = h.clock.now();
    const t0 = now - 10 * HOUR_MS;
    // Five rows share one insert time across the page boundary (pages of 3); two rows are bad.
    await addOrders([
      { user: 'u1', ts: now - 5 * HOUR_MS, insertedAt: t0 },
      { user: 'u2', ts: now - 5 * HOUR_MS, insertedAt: t0 + 1000 },
      { user: 'u3', ts: now - 4 * HOUR_MS, insertedAt: t0 + 1000 },
      { user: 'u4', ts: now - 4 * HOUR_MS, insertedAt: t0 + 1000 },
      { user: 'u5', ts: now - 4 * HOUR_MS, insertedAt: t0 + 1000 },
      { user: 'u6', ts: now - 3 * HOUR_MS, insertedAt: t0 + 1000 },
      { user: 'u7', ts: null, insertedAt: t0 + 2000 },
      { user: 'u8', ts: Date.UTC(1965, 0, 1), insertedAt: t0 + 3000 },
      { user: 'u9', ts: now - 2 * HOUR_MS, insertedAt: t0 + 4000, kind: 'Refunded' },
    ]);
    const id = await eventImport('orders');
    expect(await h.runner.run(Number(id))).toBe('SUCCEEDED');
    expect(await h.importedEvents(project.id, id)).toEqual({ visible: 7, stored: 7, insertIds: 7 });
    const [run] = await history(id);
    expect(run).toMatchObject({
      status: 'SUCCEEDED',
      trigger: 'schedule',
      rows_read: 9,
      rows_imported: 7,
      rows_failed: 2,
      error: null,
    });

    const u9 = (await h.events(project.id)).find((event) => event.distinct_id === 'u9')!;
    expect(u9.event).toBe('Refunded');
    expect(u9.properties).toMatchObject({
      plan: 'pro',
      coupon: { code: 'X1' },
      amount: 10,
      $device_id: 'device-u9',
      $warehouse_import_id: id,
      $warehouse_type: 'postgres',
    });

    await addOrders([
      { user: 'u10', ts: now - HOUR_MS, insertedAt: t0 + 5000 },
      { user: 'u11', ts: now - HOUR_MS, insertedAt: t0 + 5000 },
    ]);
    // Not due before its hour is over; then the next run reads the two new rows only.
    expect(await h.worker.tick()).not.toContain(Number(id));
    expect(await h.runner.run(Number(id))).toBe('SUCCEEDED');
    const [second] = await history(id);
    expect(second).toMatchObject({ status: 'SUCCEEDED', rows_read: 2, rows_imported: 2, rows_failed: 0 });
    expect(await h.importedEvents(project.id, id)).toEqual({ visible: 9, stored: 9, insertIds: 9 });

    const listed = await h.call('GET', app(`/imports/${id}`));
    expect(listed.body.results).toMatchObject({
      id,
      name: 'orders',
      type: 'event-stream',
      status: 'SUCCEEDED',
      paused: false,
      run_every: HOUR_NS,
      sync_mode: 'time_based',
      insert_time_column_name: 'inserted_at',
    });
  });

  it('a run stopped after a page was acknowledged but before its watermark was committed adds no duplicate when it runs again', async () => {
    const id = await eventImport('orders-killed');
    const intake = h.app.app.get(IngestService, { strict: false });
    const stop = new AbortController();
    const spy = jest.spyOn(intake, 'importEvents').mockImplementationOnce(async function (
      this: IngestService,
      ...args
    ) {
      spy.mockRestore();
      const outcome = await intake.importEvents(...args);
      stop.abort();
      return outcome;
    });
    expect(await h.runner.run(Number(id), stop.signal)).toBe('CANCELLED');
    const [cancelled] = await history(id);
    // The first page is the first three rows, though it ends inside a group of five sharing an insert time.
    expect(cancelled).toMatchObject({ status: 'CANCELLED', rows_read: 3, rows_imported: 3 });
    expect(await h.importedEvents(project.id, id)).toEqual({ visible: 3, stored: 3, insertIds: 3 });

    expect(await h.runner.run(Number(id))).toBe('SUCCEEDED');
    const [resumed] = await history(id);
    // The first page is read again (its watermark never moved) and collapses onto the copies already stored.
    expect(resumed).toMatchObject({ status: 'SUCCEEDED', rows_read: 11, rows_imported: 9, rows_failed: 2 });
    const counts = await h.importedEvents(project.id, id);
    expect(counts.visible).toBe(9);
    expect(counts.insertIds).toBe(9);
  });

  it('reads a bulk load sharing one insert time in pages of at most the page size, and a row committed later at the watermark on the next run', async () => {
    await h.warehouseSql(
      'create table shop.loads (id int primary key, ts timestamptz, user_id text, loaded_at timestamptz not null)',
    );
    const now = h.clock.now();
    const stamp = iso(now - 2 * HOUR_MS);
    for (let id = 10; id < 17; id++)
      await h.warehouseSql('insert into shop.loads values ($1, $2, $3, $4)', [
        id,
        iso(now - HOUR_MS),
        `load-${id}`,
        stamp,
      ]);
    const created = await h.call('POST', app('/imports/event-stream'), {
      warehouse_source_id: sourceId,
      name: 'bulk load',
      table_params: { table_name: 'loads', schema: 'shop' },
      time_column_name: 'ts',
      event_name: 'Loaded',
      user_column_name: 'user_id',
      insert_time_column_name: 'loaded_at',
      unique_key_column_name: 'id',
    });
    const id = created.body.results.id as string;
    // The spy calls through; each call is one page here (pages are smaller than an intake batch).
    const spy = jest.spyOn(h.app.app.get(IngestService, { strict: false }), 'importEvents');
    expect(await h.runner.run(Number(id))).toBe('SUCCEEDED');
    const batches = spy.mock.calls.map((call) => call[1].length);
    spy.mockRestore();
    // Pages of 3 (the harness's page size), not the whole load at once.
    expect(batches).toEqual([3, 3, 1]);
    expect(await h.importedEvents(project.id, id)).toMatchObject({ visible: 7, insertIds: 7 });

    // Committed later with the watermark's own insert time, and a key below the last one read.
    await h.warehouseSql('insert into shop.loads values ($1, $2, $3, $4)', [5, iso(now - HOUR_MS), 'late', stamp]);
    expect(await h.runner.run(Number(id))).toBe('SUCCEEDED');
    expect((await history(id))[0]).toMatchObject({ status: 'SUCCEEDED', rows_read: 8, rows_failed: 0 });
    // The rows of that insert time read again collapse on their $insert_id.
    expect(await h.importedEvents(project.id, id)).toMatchObject({ visible: 8, insertIds: 8 });
    expect((await h.events(project.id)).some((event) => event.distinct_id === 'late')).toBe(true);

    // Nothing new: the next run reads nothing.
    expect(await h.runner.run(Number(id))).toBe('SUCCEEDED');
    expect((await history(id))[0]).toMatchObject({ status: 'SUCCEEDED', rows_read: 0 });
  });

  it('without a unique key or primary key, orders ties by a digest of the row: every row once, then nothing', async () => {
    await h.warehouseSql('create table shop.plain (ts timestamptz, user_id text, loaded_at timestamptz not null)');
    const now = h.clock.now();
    for (const [user, loaded] of [
      ['p1', 1],
      ['p2', 2],
      ['p3', 2],
      ['p4', 2],
      ['p5', 2],
    ] as const) {
      await h.warehouseSql('insert into shop.plain values ($1, $2, $3)', [
        iso(now - HOUR_MS),
        user,
        iso(now - 2 * HOUR_MS + loaded * 1000),
      ]);
    }
    const body = {
      warehouse_source_id: sourceId,
      name: 'plain',
      table_params: { table_name: 'plain', schema: 'shop' },
      time_column_name: 'ts',
      event_name: 'Plain',
      user_column_name: 'user_id',
      insert_time_column_name: 'loaded_at',
    };
    const id = (await h.call('POST', app('/imports/event-stream'), body)).body.results.id as string;
    expect(await h.runner.run(Number(id))).toBe('SUCCEEDED');
    expect((await history(id))[0]).toMatchObject({ status: 'SUCCEEDED', rows_read: 5, rows_imported: 5 });
    expect(await h.importedEvents(project.id, id)).toMatchObject({ visible: 5, insertIds: 5 });
    expect(await h.runner.run(Number(id))).toBe('SUCCEEDED');
    expect((await history(id))[0]).toMatchObject({ status: 'SUCCEEDED', rows_read: 0 });
  });

  it('refuses warehouse hosts outside the outbound policy: 400 at creation, and a FAILED run saying why at run time', async () => {
    for (const connection of [
      { ...h.connection, host: '169.254.169.254' },
      { ...h.connection, host: '10.1.2.3' },
      { ...h.connection, host: 'fd00:ec2::254' },
      { url: 'postgres://u:p@[::ffff:10.1.2.3]:5432/db' },
    ]) {
      const refused = await h.call('POST', app(''), { name: 'internal', type: 'postgres', connection });
      expect(refused).toEqual({
        status: 400,
        body: {
          status: 'error',
          error: expect.stringMatching(
            /^connection\.host: \S+ is not a public address; an operator can allow its network with OUTBOUND_ALLOWED_NETWORKS$/,
          ),
        },
      });
    }
    // Created while allowed; its stored connection now names a refused host (as after a narrower allowlist).
    const source = (await h.call('POST', app(''), { name: 'moved', type: 'postgres', connection: h.connection })).body
      .results.id as number;
    const sealed = await h.app.app
      .get(CredentialsCipher, { strict: false })
      .seal({ ...h.connection, host: '10.1.2.3' });
    await h.app.app
      .get(Postgres)
      .db.execute(sql`update warehouse_sources set connection_sealed = ${sealed} where id = ${source}`);
    const body = {
      warehouse_source_id: source,
      name: 'moved',
      table_params: { table_name: 'orders', schema: 'shop' },
      time_column_name: 'ts',
      event_name: 'E',
      user_column_name: 'user_id',
      insert_time_column_name: 'inserted_at',
    };
    const id = (await h.call('POST', app('/imports/event-stream'), body)).body.results.id as string;
    expect(await h.runner.run(Number(id))).toBe('FAILED');
    expect((await history(id))[0]).toMatchObject({
      status: 'FAILED',
      rows_read: 0,
      error:
        'connection.host: 10.1.2.3 is not a public address; an operator can allow its network with OUTBOUND_ALLOWED_NETWORKS',
    });
  });

  it('never overlaps two runs of one import', async () => {
    const id = await eventImport('orders-overlap');
    const outcomes = await Promise.all([h.runner.run(Number(id)), h.runner.run(Number(id))]);
    expect(outcomes.sort()).toEqual(['SUCCEEDED', 'busy']);
    expect((await h.importedEvents(project.id, id)).visible).toBe(9);
  });

  it('pause and run_every: paused imports do not run, run_every 0 runs only on manual sync (through the job queue)', async () => {
    const id = await eventImport('orders-scheduled');
    expect(await h.worker.tick()).toContain(Number(id));
    await eventually(async () => expect((await history(id))[0]?.status).toBe('SUCCEEDED'));
    // A second job for the same occurrence (a tick repeated while the first waited) finds nothing due.
    expect(await h.runner.run(Number(id), undefined, { onlyIfDue: true })).toBe('skipped');
    expect(await history(id)).toHaveLength(1);

    expect((await h.call('PATCH', app(`/imports/${id}`), { run_every: 0 })).status).toBe(400);
    expect((await h.call('PATCH', app(`/imports/${id}`), { paused: true, run_every: 5 })).status).toBe(400);
    const paused = await h.call('PATCH', app(`/imports/${id}`), { paused: true });
    expect(paused.body.results).toMatchObject({ paused: true, run_every: HOUR_NS });
    h.clock.advance(2 * HOUR_MS);
    expect(await h.worker.tick()).not.toContain(Number(id));
    expect(await h.runner.run(Number(id))).toBe('skipped');
    expect((await h.call('PUT', app(`/imports/${id}/manual-sync`))).status).toBe(400);

    expect((await h.call('PATCH', app(`/imports/${id}`), { paused: false, run_every: 0 })).body.results).toMatchObject({
      paused: false,
      run_every: 0,
    });
    h.clock.advance(8 * 24 * HOUR_MS);
    expect(await h.worker.tick()).not.toContain(Number(id));
    // The manual sync files its run job at once: no tick needed.
    expect(await h.call('PUT', app(`/imports/${id}/manual-sync`))).toEqual({ status: 200, body: { status: 'ok' } });
    await eventually(async () =>
      expect((await history(id))[0]).toMatchObject({ status: 'SUCCEEDED', trigger: 'manual' }),
    );
    h.clock.advance(60_000);
    expect(await h.worker.tick()).not.toContain(Number(id));
  });

  it('a tick closes the run a dead worker left RUNNING, even on a paused import no run will claim', async () => {
    const id = await eventImport('orders-abandoned');
    expect((await h.call('PATCH', app(`/imports/${id}`), { paused: true })).status).toBe(200);
    // What a worker killed mid-run leaves: a RUNNING run and no live lease.
    await h.app.app
      .get(Postgres)
      .db.execute(
        sql`insert into warehouse_import_runs (import_id, status, trigger, started_at) values (${Number(id)}, 'RUNNING', 'schedule', now())`,
      );
    expect((await history(id))[0]).toMatchObject({ status: 'RUNNING' });
    await h.worker.tick();
    expect((await history(id))[0]).toMatchObject({
      status: 'FAILED',
      error: expect.stringContaining('the worker stopped during the run'),
    });
  });

  it('allows 5 manual syncs per hour and answers 429 beyond', async () => {
    const id = await eventImport('orders-manual', { run_every: 0 });
    for (let i = 0; i < 5; i += 1) expect((await h.call('PUT', app(`/imports/${id}/manual-sync`))).status).toBe(200);
    const refused = await h.call('PUT', app(`/imports/${id}/manual-sync`));
    expect(refused).toEqual({
      status: 429,
      body: { status: 'error', error: 'at most 5 manual syncs per import and hour' },
    });
  });

  it('a BigQuery source is stored, and its runs fail saying that no connector is installed (retried at the next schedule)', async () => {
    const lake = await h.call('POST', app(''), {
      name: 'lake',
      type: 'bigquery',
      connection: { project_id: 'lake', dataset: 'raw', service_account_key: '{"private_key":"secret"}' },
    });
    expect(lake.status).toBe(201);
    expect(lake.body.results.connection).toEqual({ project_id: 'lake', dataset: 'raw' });
    const id = (
      await h.call('POST', app('/imports/event-stream'), {
        warehouse_source_id: lake.body.results.id,
        name: 'bq',
        table_params: { table_name: 'events', schema: 'raw' },
        time_column_name: 'ts',
        event_name: 'E',
        user_column_name: 'u',
        insert_time_column_name: 'ins',
      })
    ).body.results.id;
    expect(await h.runner.run(Number(id))).toBe('FAILED');
    const [run] = await history(id);
    expect(run).toMatchObject({
      status: 'FAILED',
      rows_read: 0,
      error: expect.stringMatching(/^no connector is installed for bigquery sources/),
    });
    expect((await h.call('GET', app(`/imports/${id}`))).body.results.status).toBe('FAILED');
    expect(await h.worker.tick()).not.toContain(Number(id));
    h.clock.advance(HOUR_MS);
    expect(await h.worker.tick()).toContain(Number(id));
  });

  it('people imports set profiles; full_sync removes the profiles whose rows left the source', async () => {
    const now = h.clock.now();
    await h.warehouseSql('insert into people values ($1, $2, $3, $4), ($5, $6, $7, $8)', [
      'p1',
      'pro',
      3,
      iso(now),
      'p2',
      'free',
      1,
      iso(now),
    ]);
    const created = await h.call('POST', app('/imports/people'), {
      warehouse_source_id: sourceId,
      name: 'people',
      table_params: { table_name: 'people' },
      user_column_name: 'user_id',
      sync_mode: 'full_sync',
    });
    const id = created.body.results.id as string;
    expect(await h.runner.run(Number(id))).toBe('SUCCEEDED');
    const profiles = await h.profiles(project.id);
    expect(profiles.p1).toMatchObject({ plan: 'pro', seats: 3, $warehouse_import_id: id });
    expect(profiles.p2).toMatchObject({ plan: 'free' });

    await h.warehouseSql("delete from people where user_id = 'p2'");
    await h.warehouseSql("update people set plan = 'team' where user_id = 'p1'");
    expect(await h.runner.run(Number(id))).toBe('SUCCEEDED');
    const after = await h.profiles(project.id);
    expect(after.p1).toMatchObject({ plan: 'team' });
    expect(after.p2).toBeUndefined();
  });

  it('group imports (time_based) set group profiles and then update the rows that changed', async () => {
    expect(
      (await h.call('POST', `/api/app/projects/${project.id}/group-keys`, { name: 'company' })).status,
    ).toBeLessThan(300);
    await h.warehouseSql(
      'create table companies (company_id int primary key, size int, attrs text, updated_at timestamptz not null)',
    );
    const now = h.clock.now();
    await h.warehouseSql('insert into companies values (1, 40, $1, $2), (2, 7, $3, $2)', [
      '{"tier":"gold"}',
      iso(now - HOUR_MS),
      '{"tier":"silver"}',
    ]);
    const created = await h.call('POST', app('/imports/groups'), {
      warehouse_source_id: sourceId,
      name: 'companies',
      table_params: { table_name: 'companies' },
      group_key: 'company',
      group_id_column_name: 'company_id',
      json_properties_column_name: 'attrs',
      insert_time_column_name: 'updated_at',
    });
    const id = created.body.results.id as string;
    expect(await h.runner.run(Number(id))).toBe('SUCCEEDED');
    expect(await h.profiles(project.id, 'company')).toEqual({
      '1': expect.objectContaining({ size: 40, tier: 'gold', $warehouse_import_id: id }),
      '2': expect.objectContaining({ size: 7, tier: 'silver' }),
    });
    await h.warehouseSql('update companies set size = 41, updated_at = $1 where company_id = 1', [iso(now)]);
    expect(await h.runner.run(Number(id))).toBe('SUCCEEDED');
    // Company 2 shares the committed watermark's insert time, which company 1 left: that time is read
    // again (its $set is the same), so a row that arrived there meanwhile cannot be missed.
    expect((await history(id))[0]).toMatchObject({ status: 'SUCCEEDED', rows_read: 2, rows_imported: 2 });
    await h.warehouseSql('update companies set size = 42, updated_at = $1 where company_id = 1', [iso(now + 1000)]);
    expect(await h.runner.run(Number(id))).toBe('SUCCEEDED');
    expect((await history(id))[0]).toMatchObject({ status: 'SUCCEEDED', rows_read: 1, rows_imported: 1 });
    const after = await h.profiles(project.id, 'company');
    expect(after['1']).toMatchObject({ size: 42, tier: 'gold' });
    expect(after['2']).toMatchObject({ size: 7 });
  });

  it('DELETE with delete_data removes exactly the events and profiles of that import', async () => {
    const mine = await h.project('deleting');
    const other = async (path: string, body?: unknown) =>
      h.call(path.startsWith('GET') ? 'GET' : 'POST', app(path.replace(/^GET /, ''), mine.id), body);
    const source = (await other('', { name: 'warehouse', type: 'postgres', connection: h.connection })).body.results.id;
    const base = {
      warehouse_source_id: source,
      table_params: { table_name: 'orders', schema: 'shop' },
      time_column_name: 'ts',
      event_column_name: 'kind',
      user_column_name: 'user_id',
      insert_time_column_name: 'inserted_at',
    };
    const doomed = (await other('/imports/event-stream', { ...base, name: 'doomed' })).body.results.id;
    const kept = (await other('/imports/event-stream', { ...base, name: 'kept' })).body.results.id;
    const people = (
      await other('/imports/people', {
        warehouse_source_id: source,
        name: 'people',
        table_params: { table_name: 'people' },
        user_column_name: 'user_id',
        sync_mode: 'full_sync',
      })
    ).body.results.id;
    for (const id of [doomed, kept, people]) expect(await h.runner.run(Number(id))).toBe('SUCCEEDED');
    // An event of the same users sent to /import, outside any warehouse import.
    const sent = await fetch(`${h.app.baseUrl}/import?strict=1`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`${mine.secret}:`).toString('base64')}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify([
        {
          event: 'Ordered',
          properties: { time: Math.floor(Date.now() / 1000) - 60, distinct_id: 'u1', $insert_id: 'direct-1' },
        },
      ]),
    });
    expect(sent.status).toBe(200);
    expect((await h.importedEvents(mine.id, doomed)).visible).toBe(9);
    expect(Object.keys(await h.profiles(mine.id))).toEqual(['p1']);

    expect(await h.call('DELETE', app(`/imports/${doomed}`, mine.id), { delete_data: true })).toEqual({
      status: 200,
      body: { status: 'ok' },
    });
    expect(await h.call('DELETE', app(`/imports/${people}`, mine.id), { delete_data: true })).toEqual({
      status: 200,
      body: { status: 'ok' },
    });
    expect((await h.call('GET', app(`/imports/${doomed}`, mine.id))).status).toBe(404);
    expect((await h.call('GET', app('/imports', mine.id))).body.results.map((i: { id: string }) => i.id)).toEqual([
      kept,
    ]);
    await h.worker.processDeletions();

    expect(await h.importedEvents(mine.id, doomed)).toEqual({ visible: 0, stored: 0, insertIds: 0 });
    expect((await h.importedEvents(mine.id, kept)).visible).toBe(9);
    const direct = await h.events(mine.id);
    expect(direct.filter((event) => event.properties.$warehouse_import_id === undefined)).toHaveLength(1);
    expect(await h.profiles(mine.id)).toEqual({});
    // The first project's imports are untouched.
    expect(
      (await h.importedEvents(project.id, (await h.call('GET', app('/imports'))).body.results[0].id)).visible,
    ).toBe(9);
    // A plain delete keeps the data.
    expect(await h.call('DELETE', app(`/imports/${kept}`, mine.id))).toEqual({ status: 200, body: { status: 'ok' } });
    await h.worker.processDeletions();
    expect((await h.importedEvents(mine.id, kept)).visible).toBe(9);
  });
});
