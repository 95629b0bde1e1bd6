import { ClickHouseDdl, ClickHouseMigrator } from '@analytics/clickhouse';
import { CLICKHOUSE_MIGRATIONS } from '@analytics/runtime';
import { useTestClickHouseClient } from '@analytics/testing';
import { EVENTS_TABLE } from '../src/events-table';
import { EVENTS_COLUMN_CODECS, eventsCodecs } from '../src/migrations/0006-events-codecs';

describe("ClickHouse migration 6: the events' column codecs on a table that already holds rows", () => {
  const clickhouse = useTestClickHouseClient();
  const rows = async <T>(query: string) => (await clickhouse.client.query({ query, format: 'JSONEachRow' })).json<T>();
  const codecs = async () =>
    Object.fromEntries(
      (
        await rows<{ name: string; codec: string }>(
          `SELECT name, compression_codec AS codec FROM system.columns WHERE database = currentDatabase() AND table = '${EVENTS_TABLE}'`,
        )
      ).map(({ name, codec }) => [name, codec]),
    );
  const parts = () =>
    rows<{ name: string }>(
      `SELECT name FROM system.parts WHERE database = currentDatabase() AND table = '${EVENTS_TABLE}' AND active ORDER BY name`,
    );
  // Every stored value of every column, user_key included, as one number per row.
  const fingerprint = () =>
    rows(
      `SELECT distinct_id, cityHash64(project_id, event, time, distinct_id, insert_id, properties, processed_at, user_key) AS h
       FROM ${EVENTS_TABLE} FINAL ORDER BY distinct_id`,
    );

  it('sets the codecs without rewriting a part, keeps every value, and changes nothing when run again', async () => {
    const migrator = new ClickHouseMigrator(clickhouse.client, new ClickHouseDdl());
    await migrator.migrate(CLICKHOUSE_MIGRATIONS.filter(({ version }) => version < 6));
    await clickhouse.client.command({
      query: `INSERT INTO ${EVENTS_TABLE} SELECT 7, 'e', toDateTime64('2026-01-01 00:00:00', 3, 'UTC') + number,
        concat('u', toString(number % 10)), generateUUIDv4(), '{"a":1}', toDateTime64('2026-01-01 00:00:05', 3, 'UTC') + number
        FROM numbers(1000)`,
    });
    const [before, partsBefore] = [await fingerprint(), await parts()];

    // Migration 6 and the later ones (other tables'), as an upgrade from before 6 applies them.
    expect((await migrator.migrate(CLICKHOUSE_MIGRATIONS)).applied).toContain('6_events_codecs');
    const expected = Object.fromEntries(
      Object.entries(EVENTS_COLUMN_CODECS).map(([c, codec]) => [c, `CODEC(${codec})`]),
    );
    expect(await codecs()).toMatchObject({ ...expected, properties: 'CODEC(ZSTD(1))', project_id: '', event: '' });
    // Metadata only: the parts on disk are the ones written before, and no mutation was queued.
    expect(await parts()).toEqual(partsBefore);
    expect(await rows(`SELECT count() AS n FROM system.mutations WHERE database = currentDatabase()`)).toEqual([
      { n: 0 },
    ]);
    expect(await fingerprint()).toEqual(before);

    await eventsCodecs.up({ client: clickhouse.client, ddl: new ClickHouseDdl() });
    expect(await codecs()).toMatchObject(expected);
    // A merge rewrites the rows with the new codecs; the values stay the same.
    await clickhouse.client.command({ query: `OPTIMIZE TABLE ${EVENTS_TABLE} FINAL` });
    expect(await parts()).not.toEqual(partsBefore);
    expect(await fingerprint()).toEqual(before);
  });
});
