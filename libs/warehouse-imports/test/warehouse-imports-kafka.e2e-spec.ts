import { IngestService } from '@analytics/ingest';
import { eventually } from '@analytics/testing';
import { WarehouseHarness } from './warehouse-harness';

const HOUR_MS = 3_600_000;

/** The cluster's path: the worker produces to Kafka (acks=all) and the writers store what they consume. */
describe('warehouse imports through Kafka', () => {
  let h: WarehouseHarness;
  let project: { id: number };
  let sourceId: number;
  const app = (rest: string) => `/api/app/projects/${project.id}/warehouse-sources${rest}`;

  beforeAll(async () => {
    h = await WarehouseHarness.start(4, { kafka: true });
    project = await h.project('kafka');
    await h.warehouseSql(
      'create table clicks (id serial primary key, ts bigint, user_id text, extra json, loaded_at timestamp not null)',
    );
    const now = h.clock.now();
    for (let i = 0; i < 10; i += 1) {
      await h.warehouseSql('insert into clicks (ts, user_id, extra, loaded_at) values ($1, $2, $3, $4)', [
        now - (10 - i) * HOUR_MS,
        `k${i % 3}`,
        JSON.stringify({ n: i }),
        new Date(now - HOUR_MS + i * 1000).toISOString(),
      ]);
    }
    sourceId = (await h.call('POST', app(''), { name: 'warehouse', type: 'postgres', connection: h.connection })).body
      .results.id;
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('imports every row once, and a run stopped between pages then resumed adds no duplicate', async () => {
    const created = await h.call('POST', app('/imports/event-stream'), {
      warehouse_source_id: sourceId,
      name: 'clicks',
      table_params: { table_name: 'clicks' },
      time_column_name: 'ts',
      event_name: 'Clicked',
      user_column_name: 'user_id',
      insert_time_column_name: 'loaded_at',
      json_properties_column_name: 'extra',
    });
    const id = created.body.results.id as string;
    const intake = h.app.app.get(IngestService, { strict: false });
    const stop = new AbortController();
    const spy = jest.spyOn(intake, 'importEvents').mockImplementationOnce(async (...args) => {
      spy.mockRestore();
      const outcome = await intake.importEvents(...args);
      stop.abort();
      return outcome;
    });
    expect(await h.runner.run(Number(id), stop.signal)).toBe('CANCELLED');
    await eventually(async () => expect((await h.importedEvents(project.id, id)).visible).toBe(4));

    expect(await h.runner.run(Number(id))).toBe('SUCCEEDED');
    const [run] = (await h.call('GET', app(`/imports/${id}/history`))).body.results;
    expect(run).toMatchObject({ status: 'SUCCEEDED', rows_read: 10, rows_imported: 10, rows_failed: 0 });
    await eventually(async () =>
      expect(await h.importedEvents(project.id, id)).toMatchObject({ visible: 10, insertIds: 10 }),
    );
    const events = (await h.events(project.id)).filter((event) => event.properties.$warehouse_import_id === id);
    expect(events.map((event) => event.properties.n).sort((a, b) => Number(a) - Number(b))).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);

    // A later run finds nothing new.
    h.clock.advance(HOUR_MS);
    expect(await h.runner.run(Number(id))).toBe('SUCCEEDED');
    expect((await h.call('GET', app(`/imports/${id}/history`))).body.results[0]).toMatchObject({
      rows_read: 0,
      rows_imported: 0,
    });
  });

  it('delete_data asked right after a run waits for the writers, then removes every event of the import', async () => {
    const created = await h.call('POST', app('/imports/event-stream'), {
      warehouse_source_id: sourceId,
      name: 'clicks-deleted',
      table_params: { table_name: 'clicks' },
      time_column_name: 'ts',
      event_name: 'Clicked',
      user_column_name: 'user_id',
      insert_time_column_name: 'loaded_at',
    });
    const id = created.body.results.id as string;
    expect(await h.runner.run(Number(id))).toBe('SUCCEEDED');
    // Asked at once, while the writers may still be storing what the run produced.
    expect(await h.call('DELETE', app(`/imports/${id}`), { delete_data: true })).toEqual({
      status: 200,
      body: { status: 'ok' },
    });
    await h.worker.processDeletions();
    expect(await h.importedEvents(project.id, id)).toEqual({ visible: 0, stored: 0, insertIds: 0 });
    expect((await h.call('GET', app('/imports'))).body.results.map((item: { name: string }) => item.name)).toEqual([
      'clicks',
    ]);
  });
});
