import { streamQuery } from '@analytics/clickhouse';
import { useTestClickHouseClient } from '@analytics/testing';

/**
 * Bound parameters larger than a server's 1 MiB URI limit (http_max_uri_size): an export page's
 * keys, a compliance expansion's ids. chDB has no URI; with TEST_CLICKHOUSE=stand-in these go
 * through ClickHouse's HTTP interface, which refuses such a URL.
 */
describe('bound parameters over 1 MiB', () => {
  const clickhouse = useTestClickHouseClient();
  // 5,000 ids of 250 characters: about 1.3 MB as the engine's text form, more in a URL. (Fewer, longer
  // ids than a real expansion: the engine's cost is per element, and the size is what matters here.)
  const ids = Array.from({ length: 5_000 }, (_, i) => `person-${i}-`.padEnd(250, 'abcdefghij'));

  it('reach the engine whole through query, command and a streamed read', async () => {
    const answer = await clickhouse.client.query({
      query: 'SELECT length({ids:Array(String)}) AS n, {ids:Array(String)}[5000] AS last',
      query_params: { ids },
      format: 'JSONEachRow',
    });
    expect(await answer.json()).toEqual([{ n: 5_000, last: ids[4_999] }]);

    await clickhouse.client.command({
      query: 'CREATE TABLE large_parameters ENGINE = Memory AS SELECT arrayJoin({ids:Array(String)}) AS id',
      query_params: { ids },
    });
    const stored = await clickhouse.client.query({
      query: 'SELECT count() AS n, uniqExact(id) AS distinct FROM large_parameters',
      format: 'JSONEachRow',
    });
    expect(await stored.json()).toEqual([{ n: 5_000, distinct: 5_000 }]);

    let lines = 0;
    for await (const chunk of streamQuery(clickhouse.client, {
      query: 'SELECT id FROM large_parameters WHERE id IN {ids:Array(String)}',
      query_params: { ids },
      format: 'TabSeparatedRaw',
    })) {
      for (const byte of chunk.bytes) if (byte === 10) lines++;
    }
    expect(lines).toBe(5_000);
  });
});
