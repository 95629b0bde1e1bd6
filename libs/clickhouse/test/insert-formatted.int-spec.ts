import { ClickHouseClient, ClickHouseError } from '@clickhouse/client';
import { insertFormatted } from '@analytics/clickhouse';
import { useTestClickHouseClient } from '@analytics/testing';

describe('insertFormatted (real engine)', () => {
  const clickhouse = useTestClickHouseClient();
  let client: ClickHouseClient;

  beforeAll(async () => {
    client = clickhouse.client;
    await client.command({
      query:
        'CREATE TABLE docs (id UInt32, body String) ENGINE = MergeTree ORDER BY id SETTINGS non_replicated_deduplication_window = 100',
    });
  });

  const stored = async () =>
    (await client.query({ query: 'SELECT id, body FROM docs ORDER BY id, body', format: 'JSONEachRow' })).json<{
      id: number;
      body: string;
    }>();
  const lines = (...rows: object[]) => Buffer.from(rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
  const insert = (rows: Buffer | string, settings = {}) =>
    insertFormatted(client, {
      table: 'docs',
      format: 'JSONEachRow',
      rows,
      settings: { input_format_json_read_objects_as_strings: 1, ...settings },
    });

  beforeEach(() => client.command({ query: 'TRUNCATE TABLE docs' }));

  it('stores the bytes as rows with the insert settings, and drops a repeat of the same dedup token', async () => {
    const rows = lines({ id: 1, body: { nested: [1, 2] } }, { id: 2, body: 'text' });
    await insert(rows, { insert_deduplicate: 1, insert_deduplication_token: 'batch-1' });
    await insert(rows, { insert_deduplicate: 1, insert_deduplication_token: 'batch-1' });
    expect(await stored()).toEqual([
      { id: 1, body: '{"nested":[1,2]}' },
      { id: 2, body: 'text' },
    ]);
  });

  it('is not changed by settings an earlier call left on the session, and leaves none behind', async () => {
    // chDB keeps a call's settings as SETs on its session: a token left there would make the
    // second insert below a repeat of the first, and it would be dropped.
    await client.command({
      query: 'SELECT 1',
      clickhouse_settings: { insert_deduplicate: 1, insert_deduplication_token: 'left-behind' },
    });
    await insert(lines({ id: 1, body: 'a' }));
    await insert(lines({ id: 2, body: 'b' }));
    expect(await stored()).toHaveLength(2);

    await insert(lines({ id: 3, body: 'c' }), { insert_deduplication_token: 'only-this-insert' });
    const [setting] = await (
      await client.query({
        query:
          "SELECT getSetting('insert_deduplication_token') AS token, getSetting('input_format_parallel_parsing') AS parallel",
        format: 'JSONEachRow',
      })
    ).json<{ token: string; parallel: boolean | number }>();
    expect(setting.token).toBe('');
    // The in-process insert parses on one thread (its own default); the session's queries keep ClickHouse's.
    expect(Number(setting.parallel)).toBe(1);
  });

  it('refuses bad rows with the engine error in the client shape, and treats no rows as nothing to do', async () => {
    const refusal = await insert(lines({ id: 'not a number', body: 'x' })).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ClickHouseError);
    expect(refusal).toMatchObject({ code: '27', type: 'CANNOT_PARSE_INPUT_ASSERTION_FAILED' });
    await insert(Buffer.alloc(0));
    await insert('');
    expect(await stored()).toEqual([]);
  });
});
