import {
  ClickHouseClient,
  ClickHouseDdl,
  ClickHouseMigrator,
  clickHouseErrorCode,
  createClickHouseClient,
  insertFormatted,
  streamQuery,
} from '@analytics/clickhouse';
import { CLICKHOUSE_MIGRATIONS } from '@analytics/runtime';
import { temporaryDirectory } from '@analytics/testing';
import { ClickHouseError } from '@clickhouse/client';
import { Readable } from 'node:stream';
import { ClickHouseStandIn, startClickHouseStandIn } from '../../bench/support/clickhouse-server';

/**
 * The benches' ClickHouse-server stand-in (bench/support/clickhouse-server.ts; here because jest's
 * roots are apps, libs and test) serves what the writer and the export send a server, through our
 * own client over HTTP: the code path production takes and chDB-backed benches do not.
 */
describe('ClickHouse server stand-in (bench)', () => {
  const dir = temporaryDirectory('clickhouse-stand-in');
  let standIn: ClickHouseStandIn;
  let client: ClickHouseClient;

  beforeAll(async () => {
    standIn = await startClickHouseStandIn({ directory: dir.path });
    client = createClickHouseClient(`${standIn.url}/default`);
  });

  afterAll(async () => {
    await client?.close();
    await standIn?.close();
    dir.remove();
  });

  const row = (event: string, insertId: string) =>
    `${JSON.stringify({ project_id: 7, event, time: '2026-11-01 10:00:00.000', distinct_id: 'u1', insert_id: insertId, properties: '{"a":1}', processed_at: '2026-11-01 10:00:01.000' })}\n`;
  const count = async (event: string) => {
    const result = await client.query({
      query: 'SELECT count() AS n FROM events WHERE project_id = {project:UInt32} AND event = {event:String}',
      query_params: { project: 7, event },
      format: 'JSONEachRow',
    });
    return ((await result.json()) as { n: number }[])[0].n;
  };

  it('runs the migrations, twice without change', async () => {
    await new ClickHouseMigrator(client, new ClickHouseDdl()).migrate(CLICKHOUSE_MIGRATIONS);
    await new ClickHouseMigrator(client, new ClickHouseDdl()).migrate(CLICKHOUSE_MIGRATIONS);
    const tables = await (
      await client.query({
        query: 'SELECT name FROM system.tables WHERE database = currentDatabase() ORDER BY name',
        format: 'JSONEachRow',
      })
    ).json<{ name: string }>();
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['events', 'profiles']));
  });

  it('inserts formatted rows with the per-insert dedup token, and binds parameters verbatim', async () => {
    // A quote, a backslash and a tab: the client sends them escaped (it\'s), chDB must get them as sent.
    const event = "it's a \\ and a \t tab";
    const rows = Buffer.from(row(event, 'a') + row(event, 'b'));
    await insertFormatted(client, {
      table: 'events',
      format: 'JSONEachRow',
      rows,
      settings: { insert_deduplication_token: 'batch-1' },
    });
    await insertFormatted(client, {
      table: 'events',
      format: 'JSONEachRow',
      rows,
      settings: { insert_deduplication_token: 'batch-1' },
    });
    expect(await count(event)).toBe(2);
    expect(standIn.served.insert).toBeGreaterThanOrEqual(2);
    // The token was for those inserts only: had it stayed on chDB's connection, this block would be dropped as a repeat.
    await insertFormatted(client, { table: 'events', format: 'JSONEachRow', rows: Buffer.from(row(event, 'c')) });
    expect(await count(event)).toBe(3);
  });

  it('applies a request setting to that request only', async () => {
    const setting = async (settings: Record<string, number>) =>
      (
        await (
          await client.query({
            query: "SELECT getSetting('max_threads') AS v",
            format: 'JSONEachRow',
            clickhouse_settings: settings,
          })
        ).json<{ v: number }>()
      )[0].v;
    const before = await setting({});
    expect(await setting({ max_threads: 3 })).toBe(3);
    expect(await setting({})).toBe(before);
  });

  it('takes bound parameters as long as a server does (the client puts them in the URL)', async () => {
    // 5,000 ids of 20 characters: about 130 KB of URL, past Node's default 16 KiB of headers.
    const ids = Array.from({ length: 5000 }, (_, i) => `person-${String(i).padStart(13, '0')}`);
    const result = await client.query({
      query: 'SELECT length({ids:Array(String)}) AS n',
      query_params: { ids },
      format: 'JSONEachRow',
    });
    expect(await result.json()).toEqual([{ n: 5000 }]);
  });

  it('streams a large result in chunks, and a consumer that stops early leaves the server serving', async () => {
    let lines = 0;
    let chunks = 0;
    for await (const chunk of streamQuery(client, {
      query: "SELECT number, repeat('x', 100) FROM numbers({n:UInt64})",
      query_params: { n: 300_000 },
      format: 'TabSeparated',
    })) {
      chunks++;
      for (let i = chunk.bytes.indexOf(10); i !== -1; i = chunk.bytes.indexOf(10, i + 1)) lines++;
    }
    expect(lines).toBe(300_000);
    expect(chunks).toBeGreaterThan(1);
    for await (const _ of streamQuery(client, {
      query: 'SELECT number FROM numbers(10000000)',
      format: 'TabSeparated',
    }))
      break;
    expect(await count('none')).toBe(0);
  });

  it('answers an error as ClickHouse does: the client raises ClickHouseError with its code', async () => {
    const failure = await client
      .query({ query: 'SELECT * FROM no_such_table', format: 'JSONEachRow' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ClickHouseError);
    expect(clickHouseErrorCode(failure)).toBe(60);
    expect((failure as ClickHouseError).type).toBe('UNKNOWN_TABLE');
    const badInsert = await insertFormatted(client, {
      table: 'events',
      format: 'JSONEachRow',
      rows: Buffer.from('{"project_id": "not a number"\n'),
    }).catch((error: unknown) => error);
    expect(badInsert).toBeInstanceOf(ClickHouseError);
    expect(clickHouseErrorCode(badInsert)).toBeGreaterThan(0);
    // Rows it would pass on as text are refused rather than corrupted.
    const binaryInsert = await client
      .exec({ query: 'INSERT INTO events FORMAT RowBinary', values: Readable.from([Buffer.from([0, 1, 2])]) })
      .catch((error: unknown) => error);
    expect(clickHouseErrorCode(binaryInsert)).toBe(48);
    // A setting chDB refuses fails that request only: the next ones are served.
    const badSetting = await client
      .query({ query: 'SELECT 1', clickhouse_settings: { no_such_setting: 1 } as never })
      .catch((error: unknown) => error);
    expect(clickHouseErrorCode(badSetting)).toBe(115);
    expect(await count('none')).toBe(0);
    expect(await count('none')).toBe(0);
  });
});
