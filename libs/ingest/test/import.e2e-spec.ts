import { ClickHouseClient } from '@analytics/clickhouse';
import { EventsRepository } from '@analytics/event-store';
import { gzipSync } from 'node:zlib';
import { IngestHarness, importEvent, nowSeconds, startIngestHarness } from './ingest-harness';

describe('POST /import (in-process writer)', () => {
  let h: IngestHarness;
  const json = (body: unknown, headers: Record<string, string> = {}, query = '') =>
    h.post(`/import${query}`, JSON.stringify(body), {
      Authorization: h.basic,
      'Content-Type': 'application/json',
      ...headers,
    });

  beforeAll(async () => {
    h = await startIngestHarness({ env: { INGEST_MAX_BODY_BYTES: '400000' } });
  });
  afterAll(() => h.close());

  it("imports valid events and answers the spec's 200 body", async () => {
    const response = await json([importEvent(1), importEvent(2)]);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ code: 200, num_records_imported: 2, status: 'OK' });
    const stored = await h.stored("insert_id IN ('ins-1','ins-2')");
    expect(stored.map((e) => JSON.parse(e.properties))).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('reports each invalid event in failed_records with 400 while importing the valid ones', async () => {
    const bad = { event: 'Played', properties: { time: nowSeconds(), distinct_id: 'anonymous', $insert_id: 'bad-1' } };
    const response = await json([importEvent(10), bad, { properties: {} }]);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: 400,
      error: 'some data points in the request failed validation',
      num_records_imported: 1,
      status: 'Bad Request',
      failed_records: [
        {
          index: 1,
          insert_id: 'bad-1',
          field: 'properties.distinct_id',
          message: '"anonymous" is not allowed as properties.distinct_id',
        },
        { index: 2, insert_id: '', field: 'event', message: 'event must be a non-empty string' },
      ],
    });
    expect(await h.stored("insert_id = 'ins-10'")).toHaveLength(1);
  });

  it('with strict=0 skips invalid events silently', async () => {
    const response = await json([importEvent(20), { event: 'x', properties: {} }], {}, '?strict=0');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ code: 200, num_records_imported: 1, status: 'OK' });
  });

  it('answers 401 in the import shape without or with wrong credentials', async () => {
    for (const headers of [
      { Authorization: '' },
      { Authorization: 'Basic d3Jvbmc6' },
      { Authorization: 'Bearer x' },
      { Authorization: `Basic ${'%'.repeat(5000)}` },
    ]) {
      const response = await json([importEvent(30)], headers);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 401, status: 'Unauthorized', num_records_imported: 0 });
    }
  });

  it('accepts the project token and the plain `secret:` form as the Basic username', async () => {
    expect(
      (
        await json([importEvent(31)], {
          Authorization: `Basic ${Buffer.from(`${h.project.token}:`).toString('base64')}`,
        })
      ).status,
    ).toBe(200);
    expect((await json([importEvent(32)], { Authorization: `Basic ${h.project.secret}:` })).status).toBe(200);
  });

  it('reads NDJSON and gzip bodies, and treats an empty Content-Encoding as none', async () => {
    const ndjson = [importEvent(40), importEvent(41)].map((e) => JSON.stringify(e)).join('\n');
    expect(
      (await h.post('/import', ndjson, { Authorization: h.basic, 'Content-Type': 'application/x-ndjson' })).status,
    ).toBe(200);
    const gz = gzipSync(JSON.stringify([importEvent(42)]));
    expect(
      (
        await h.post('/import', gz, {
          Authorization: h.basic,
          'Content-Type': 'application/json',
          'Content-Encoding': 'gzip',
        })
      ).status,
    ).toBe(200);
    expect((await json([importEvent(43)], { 'Content-Encoding': '' })).status).toBe(200);
    expect(await h.stored("insert_id IN ('ins-40','ins-41','ins-42','ins-43')")).toHaveLength(4);
  });

  it('reads a body that starts with a UTF-8 byte-order mark (as Windows tools write files): JSON, NDJSON, gzip and forms', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const withBom = (text: string) => Buffer.concat([bom, Buffer.from(text)]);
    const post = (body: Buffer, headers: Record<string, string>) =>
      h.post('/import', body, { Authorization: h.basic, ...headers });
    const answers = [
      await post(withBom(JSON.stringify([importEvent(90)])), { 'Content-Type': 'application/json' }),
      await post(withBom(JSON.stringify(importEvent(91))), {}),
      await post(withBom(JSON.stringify(importEvent(92))), { 'Content-Type': 'application/x-ndjson' }),
      await post(gzipSync(withBom(JSON.stringify([importEvent(93)]))), {
        'Content-Type': 'application/json',
        'Content-Encoding': 'gzip',
      }),
    ];
    expect(await Promise.all(answers.map((answer) => answer.json()))).toEqual(
      Array(4).fill({ code: 200, num_records_imported: 1, status: 'OK' }),
    );
    const form = await post(withBom(`data=${encodeURIComponent(JSON.stringify(importEvent(94)))}`), {});
    expect(await form.text()).toBe('1');
    expect(
      (await h.stored("insert_id IN ('ins-90','ins-91','ins-92','ins-93','ins-94')")).map((e) => e.insert_id),
    ).toEqual(['ins-90', 'ins-91', 'ins-92', 'ins-93', 'ins-94']);
  });

  it('refuses bodies that are not JSON, with a clear 400', async () => {
    const response = await h.post('/import', '[{"event":', {
      Authorization: h.basic,
      'Content-Type': 'application/json',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 400, error: 'request body is not valid JSON' });
    const gz = await h.post('/import', 'not gzip', { Authorization: h.basic, 'Content-Encoding': 'gzip' });
    expect(await gz.json()).toMatchObject({ code: 400, error: 'request body is not valid gzip data' });
  });

  it('reports records that are not event objects in failed_records, never 500', async () => {
    const answers: Record<string, unknown> = {};
    for (const body of ['[null]', '[1]', '["x"]', '[[]]', 'null', 'true']) {
      const answer = await h.post('/import', body, { Authorization: h.basic, 'Content-Type': 'application/json' });
      answers[body] = { status: answer.status, body: await answer.json() };
    }
    const notObject = {
      status: 400,
      body: {
        code: 400,
        error: 'some data points in the request failed validation',
        failed_records: [{ index: 0, insert_id: '', field: 'event', message: 'each event must be a JSON object' }],
        num_records_imported: 0,
        status: 'Bad Request',
      },
    };
    const notEvents = {
      status: 400,
      body: {
        code: 400,
        error: 'request body must be a JSON array of events',
        num_records_imported: 0,
        status: 'Bad Request',
      },
    };
    expect(answers).toEqual({
      '[null]': notObject,
      '[1]': notObject,
      '["x"]': notObject,
      '[[]]': notObject,
      null: notEvents,
      true: notEvents,
    });
  });

  it('takes 2000 events in one request and refuses 2001', async () => {
    const events = Array.from({ length: 2001 }, (_, i) => importEvent(10_000 + i));
    expect(await (await json(events.slice(0, 2000))).json()).toEqual({
      code: 200,
      num_records_imported: 2000,
      status: 'OK',
    });
    const over = await json(events);
    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({ error: 'request has 2001 events; at most 2000 are allowed' });
  });

  it('takes a body of exactly the limit and answers 413 naming the limit one byte over', async () => {
    const base = JSON.stringify([importEvent(50, { pad: '' })]);
    const exact = base.replace('"pad":""', `"pad":"${'p'.repeat(400_000 - base.length)}"`);
    expect(Buffer.byteLength(exact)).toBe(400_000);
    expect(
      (await h.post('/import', exact, { Authorization: h.basic, 'Content-Type': 'application/json' })).status,
    ).toBe(200);
    const over = await h.post('/import', `${exact} `, { Authorization: h.basic, 'Content-Type': 'application/json' });
    expect(over.status).toBe(413);
    // The real API's text, which its clients match.
    expect(await over.json()).toEqual({
      code: 413,
      error: 'request exceeds max limit of 400000 bytes',
      num_records_imported: 0,
      status: 'Request Entity Too Large',
    });
  });

  it('cuts off a gzip bomb with 413', async () => {
    const bomb = gzipSync(Buffer.alloc(50_000_000, 0x20));
    expect(bomb.length).toBeLessThan(100_000);
    const response = await h.post('/import', bomb, { Authorization: h.basic, 'Content-Encoding': 'gzip' });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: 'request exceeds max limit of 400000 bytes' });
  });

  it('reads time as seconds, milliseconds and fractional seconds, and refuses future and too-old times', async () => {
    const t = nowSeconds() - 1000;
    const response = await json([
      importEvent(60, { time: t }),
      importEvent(61, { time: t * 1000 + 123 }),
      importEvent(62, { time: t + 0.5 }),
      importEvent(63, { time: nowSeconds() + 7200 }),
      importEvent(64, { time: 1000 }),
    ]);
    const body = (await response.json()) as {
      num_records_imported: number;
      failed_records: { index: number; field: string }[];
    };
    expect(body.num_records_imported).toBe(3);
    expect(body.failed_records.map((f) => [f.index, f.field])).toEqual([
      [3, 'properties.time'],
      [4, 'properties.time'],
    ]);
    const stored = await h.stored("insert_id IN ('ins-60','ins-61','ins-62')");
    expect(stored.map((e) => e.time_ms).sort()).toEqual([t * 1000, t * 1000 + 123, t * 1000 + 500]);
  });

  it('stores duplicates once, within a batch and across batches, the latest copy winning', async () => {
    const time = nowSeconds() - 50; // one time for every copy: the dedup key includes it
    const dup = (v: number) => ({ event: 'Dup', properties: { time, distinct_id: 'd', $insert_id: 'dup-1', v } });
    await json([dup(1), dup(2)]);
    await json([dup(3)]);
    const stored = await h.stored("insert_id = 'dup-1'");
    expect(stored).toHaveLength(1);
    expect(JSON.parse(stored[0].properties)).toEqual({ v: 3 });
    const raw = await h.app.app
      .get(ClickHouseClient)
      .query({ query: "SELECT count() AS c FROM events WHERE insert_id = 'dup-1'", format: 'JSONEachRow' });
    // Physically at most the three copies sent (merges may have collapsed them already): never more.
    expect(((await raw.json()) as { c: number }[])[0].c).toBeLessThanOrEqual(3);
  });

  it('stores a retried event from a clock half an hour ahead once, on /import and on /track', async () => {
    const time = nowSeconds() + 1800;
    const imported = { event: 'Skewed', properties: { time, distinct_id: 'fast-phone', $insert_id: 'skew-import' } };
    const tracked = {
      event: 'Skewed',
      properties: { time, distinct_id: 'fast-phone', $insert_id: 'skew-track', token: h.project.token },
    };
    const deliver = async () => {
      expect((await json([imported])).status).toBe(200);
      expect(
        await (
          await h.post('/track', `data=${encodeURIComponent(JSON.stringify(tracked))}`, {
            'Content-Type': 'application/x-www-form-urlencoded',
          })
        ).text(),
      ).toBe('1');
    };
    await deliver();
    // The client retries (its first answer was lost): received two seconds later.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await deliver();
    const stored = await h.stored("event = 'Skewed'");
    expect(stored.map((e) => [e.insert_id, e.time_ms])).toEqual([
      ['skew-import', time * 1000],
      ['skew-track', time * 1000],
    ]);
  });

  it('stores a lone surrogate as U+FFFD wherever it stands, and answers 200', async () => {
    const body = `[{"event":"a\\ud800b","properties":{"time":${nowSeconds() - 50},"distinct_id":"x\\udc00","$insert_id":"abc123","k\\udbff":"v\\ud800"}}]`;
    const response = await h.post('/import', body, { Authorization: h.basic, 'Content-Type': 'application/json' });
    expect(response.status).toBe(200);
    const [stored] = await h.stored("insert_id = 'abc123'");
    expect(stored).toMatchObject({ event: 'a\ufffdb', distinct_id: 'x\ufffd' });
    expect(JSON.parse(stored.properties)).toEqual({ 'k\ufffd': 'v\ufffd' });
  });

  it('reports an event the store refuses in failed_records and stores the rest; 503 only when the store is down', async () => {
    // No event the rules accept is known to be refused, so the repository is made to send one: a
    // marked distinct_id becomes a lone surrogate escape, which ClickHouse refuses for real.
    const repository = h.app.app.get(EventsRepository);
    const insert = repository.insert.bind(repository);
    const spy = jest
      .spyOn(repository, 'insert')
      .mockImplementation((lines, token) =>
        insert(String(lines).replace('"distinct_id":"poison-me"', '"distinct_id":"\\ud800"'), token),
      );
    try {
      const response = await json([importEvent(80), importEvent(81, { distinct_id: 'poison-me' }), importEvent(82)]);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        num_records_imported: 2,
        failed_records: [
          {
            index: 1,
            insert_id: 'ins-81',
            field: 'event',
            message: expect.stringContaining('missing second part of surrogate pair'),
          },
        ],
      });
      expect((await h.stored("insert_id IN ('ins-80','ins-81','ins-82')")).map((e) => e.insert_id)).toEqual([
        'ins-80',
        'ins-82',
      ]);
      spy.mockRejectedValueOnce(
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8123'), { code: 'ECONNREFUSED' }),
      );
      expect((await json([importEvent(83)])).status).toBe(503);
    } finally {
      spy.mockRestore();
    }
  });

  it('imports history spanning more than 100 months in one request', async () => {
    const events = Array.from({ length: 150 }, (_, i) => ({
      event: 'History',
      properties: { time: Date.UTC(1980, i, 2) / 1000, distinct_id: 'h', $insert_id: `hist-${i}` },
    }));
    expect((await json(events)).status).toBe(200);
    expect(await h.stored("event = 'History'")).toHaveLength(150);
  });

  it('keeps every JSON type exactly as sent', async () => {
    const properties = {
      s: 'héllo "q" \\ 😀',
      i: 42,
      neg: -7,
      f: 3.25,
      big: 0,
      t: true,
      nil: null,
      list: [1, 'a', [2]],
      obj: { k: { v: 1 } },
    };
    const body = JSON.stringify([importEvent(70, properties)]).replace('"big":0', '"big":123456789012345678901');
    expect((await h.post('/import', body, { Authorization: h.basic, 'Content-Type': 'application/json' })).status).toBe(
      200,
    );
    const [stored] = await h.stored("insert_id = 'ins-70'");
    expect(stored.properties).toContain('"big":123456789012345678901');
    expect(JSON.parse(stored.properties)).toEqual({ ...properties, n: 70, big: 123456789012345678901 });
  });
});
