import { streamQuery } from '@analytics/clickhouse';
import { eventually, useTestClickHouseClient } from '@analytics/testing';

describe('streamQuery (real engine)', () => {
  const clickhouse = useTestClickHouseClient();

  // A result that would take hours to produce: only cancellation can end it in time.
  const endless = "SELECT number, 'padding padding padding' FROM system.numbers WHERE number % {mod:UInt64} = 0";
  const running = async () =>
    (
      await (
        await clickhouse.client.query({
          query:
            "SELECT count() AS n FROM system.processes WHERE query LIKE '%system.numbers%' AND query NOT LIKE '%system.processes%'",
          format: 'JSONEachRow',
        })
      ).json<{ n: number }>()
    )[0].n;

  it('yields whole rows with bound parameters, counted per chunk', async () => {
    let text = '';
    let rows = 0;
    for await (const chunk of streamQuery(clickhouse.client, {
      query: 'SELECT number FROM numbers(100000) WHERE number % {mod:UInt64} = 0',
      query_params: { mod: 3 },
      format: 'TabSeparatedRaw',
    })) {
      if (chunk.rows !== undefined) expect(chunk.bytes.at(-1)).toBe(10); // chDB's chunks end on a row
      text += chunk.bytes.toString();
      rows += chunk.rows ?? chunk.bytes.toString().split('\n').length - 1;
    }
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(33_334);
    expect(rows).toBe(33_334);
    expect(lines.at(-1)).toBe('99999');
  });

  it('ends the query when the consumer leaves the loop, or when its signal aborts', async () => {
    for await (const chunk of streamQuery(clickhouse.client, {
      query: endless,
      query_params: { mod: 1 },
      format: 'TabSeparatedRaw',
    })) {
      expect(chunk.bytes.length).toBeGreaterThan(0);
      break;
    }
    await eventually(async () => expect(await running()).toBe(0));

    const abort = new AbortController();
    const stream = streamQuery(clickhouse.client, {
      query: endless,
      query_params: { mod: 1 },
      format: 'TabSeparatedRaw',
      abort_signal: abort.signal,
    });
    await stream.next();
    expect(await running()).toBe(1);
    abort.abort();
    await expect(
      (async () => {
        for (;;) if ((await stream.next()).done) return 'ended';
      })(),
    ).rejects.toThrow(/abort/i);
    await eventually(async () => expect(await running()).toBe(0));
  });

  it('runs two streams at once while the client answers other queries', async () => {
    const first = streamQuery(clickhouse.client, {
      query: endless,
      query_params: { mod: 1 },
      format: 'TabSeparatedRaw',
    });
    const second = streamQuery(clickhouse.client, {
      query: endless,
      query_params: { mod: 2 },
      format: 'TabSeparatedRaw',
    });
    expect((await first.next()).done).toBe(false);
    expect((await second.next()).done).toBe(false);
    expect(await running()).toBe(2);
    expect(
      await (await clickhouse.client.query({ query: 'SELECT 40 + 2 AS n', format: 'JSONEachRow' })).json(),
    ).toEqual([{ n: 42 }]);
    await first.return(undefined);
    await second.return(undefined);
    await eventually(async () => expect(await running()).toBe(0));
  });
});
