import { eventually } from '@analytics/testing';
import { IngestHarness, nowSeconds, startIngestHarness } from './ingest-harness';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

describe('/track and the SDK transport of /import', () => {
  let h: IngestHarness;
  const trackEvent = (id: string, extra: Record<string, unknown> = {}) => ({
    event: 'Viewed',
    properties: { token: h.project.token, distinct_id: 'browser-1', $insert_id: id, ...extra },
  });
  const form = (data: string) => `data=${encodeURIComponent(data)}`;

  beforeAll(async () => {
    h = await startIngestHarness({ env: { INGEST_LIMIT_EVENTS_PER_MINUTE: '100000' } });
  });
  afterAll(() => h.close());

  it('accepts data as a form field, a query parameter, a JSON body and a text/plain beacon', async () => {
    const ok = async (response: Response) => expect(await response.text()).toBe('1');
    await ok(
      await h.post('/track', form(b64([trackEvent('t-form')])), {
        'Content-Type': 'application/x-www-form-urlencoded',
      }),
    );
    await ok(await fetch(`${h.app.baseUrl}/track?data=${encodeURIComponent(b64(trackEvent('t-query')))}`));
    await ok(await h.post('/track/', JSON.stringify([trackEvent('t-json')]), { 'Content-Type': 'application/json' }));
    await ok(
      await h.post('/track/?ip=1&_=123', form(JSON.stringify([trackEvent('t-beacon')])), {
        'Content-Type': 'text/plain;charset=UTF-8',
      }),
    );
    // mixpanel-node posts unescaped base64: its `+` reads as a space through a form decoder.
    const plus = b64(trackEvent('t-plus', { note: '>>>??>' }));
    expect(plus).toContain('+');
    await ok(await h.post('/track', `data=${plus}`, { 'Content-Type': 'application/x-www-form-urlencoded' }));
    const stored = await h.stored("insert_id LIKE 't-%'");
    expect(stored.map((e) => e.insert_id).sort()).toEqual(['t-beacon', 't-form', 't-json', 't-plus', 't-query']);
    expect(JSON.parse(stored.find((e) => e.insert_id === 't-beacon')!.properties)).toEqual({ $ip: '127.0.0.1' });
  });

  it('does not keep the token, takes the receipt time and makes an $insert_id when absent', async () => {
    const before = Date.now();
    await h.post(
      '/track',
      form(JSON.stringify({ event: 'NoTime', properties: { token: h.project.token, distinct_id: 'x' } })),
    );
    const [stored] = await h.stored("event = 'NoTime'");
    expect(stored.time_ms).toBeGreaterThanOrEqual(before - 1);
    expect(stored.insert_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(stored.properties).toBe('{}');
  });

  it('answers verbose, image and JSONP forms, always 200', async () => {
    const good = form(JSON.stringify(trackEvent('t-verbose')));
    expect(await (await h.post('/track?verbose=1', good)).json()).toEqual({ error: null, status: 1 });
    const bad = form(JSON.stringify({ event: 'x', properties: { token: 'nope', distinct_id: 'u' } }));
    const rejected = await h.post('/track?verbose=1', bad);
    expect(rejected.status).toBe(200);
    expect(await rejected.json()).toEqual({ error: 'event 0: unknown or missing project token', status: 0 });
    expect(await (await h.post('/track', bad)).text()).toBe('0');
    const image = await h.post('/track?img=1', good);
    expect(image.headers.get('content-type')).toBe('image/gif');
    const jsonp = await h.post('/track?callback=mp.cb_1', good);
    expect(await jsonp.text()).toBe('mp.cb_1(1);');
    expect(await (await h.post('/track?callback=alert(1)//', good)).text()).toBe('1');
  });

  it('answers CORS for browsers sending credentials, including preflights', async () => {
    const response = await h.post('/track/', form(JSON.stringify(trackEvent('t-cors'))), {
      Origin: 'https://shop.example',
    });
    expect(response.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    const preflight = await fetch(`${h.app.baseUrl}/track/`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://shop.example', 'Access-Control-Request-Headers': 'x-custom' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('x-custom');
  });

  it('refuses events older than 5 days and keeps the rest of the batch', async () => {
    const old = trackEvent('t-old', { time: nowSeconds() - 6 * 86400 });
    const response = await h.post('/track?verbose=1', form(JSON.stringify([old, trackEvent('t-fresh')])));
    expect(await response.json()).toMatchObject({ status: 0, error: expect.stringContaining('more than 5 days old') });
    expect(await h.stored("insert_id IN ('t-old','t-fresh')")).toHaveLength(1);
  });

  it('says clearly when there is no data or it cannot be decoded', async () => {
    expect(await (await h.post('/track?verbose=1', '')).json()).toEqual({
      error: 'no data: send the events in a `data` field',
      status: 0,
    });
    expect(await (await h.post('/track?verbose=1', 'data=%%%')).json()).toMatchObject({ status: 0 });
  });

  it("answers data that holds no event objects with the transport's failure, never 500: /track and the legacy /import", async () => {
    const notObjects = 'event 0: each event must be a JSON object';
    const notData = 'data must be JSON or base64-encoded JSON of an object or an array';
    const noData = 'no data: send the events in a `data` field';
    const transports: [string, (data: string) => Promise<Response>][] = [
      [
        '/track form',
        (data) => h.post('/track?verbose=1', form(data), { 'Content-Type': 'application/x-www-form-urlencoded' }),
      ],
      [
        '/track beacon',
        (data) =>
          h.post('/track?verbose=1', form(b64(JSON.parse(data))), { 'Content-Type': 'text/plain;charset=UTF-8' }),
      ],
      ['/track query', (data) => fetch(`${h.app.baseUrl}/track?verbose=1&data=${encodeURIComponent(data)}`)],
      [
        '/import form',
        (data) =>
          h.post('/import?verbose=1', form(data), {
            Authorization: h.basic,
            'Content-Type': 'application/x-www-form-urlencoded',
          }),
      ],
      [
        '/import form, JSON inside',
        (data) =>
          h.post('/import?verbose=1', data, {
            Authorization: h.basic,
            'Content-Type': 'application/x-www-form-urlencoded',
          }),
      ],
      [
        '/import query',
        (data) =>
          fetch(`${h.app.baseUrl}/import?verbose=1&data=${encodeURIComponent(b64(JSON.parse(data)))}`, {
            headers: { Authorization: h.basic },
          }),
      ],
    ];
    const answers: string[] = [];
    const expected: string[] = [];
    for (const data of ['[null]', '[1]', '["x"]', '[[]]', 'null', 'true']) {
      for (const [transport, send] of transports) {
        const answer = await send(data);
        answers.push(`${transport} ${data}: ${answer.status} ${await answer.text()}`);
        // A form body that is bare JSON but no array or object holds no `data` field at all.
        const error = data.startsWith('[') ? notObjects : transport === '/import form, JSON inside' ? noData : notData;
        expected.push(`${transport} ${data}: 200 ${JSON.stringify({ error, status: 0 })}`);
      }
    }
    expect(answers).toEqual(expected);
    expect(await (await h.post('/track', form('[null]'))).text()).toBe('0');
    expect(
      await (
        await h.post('/import', form('[null]'), {
          Authorization: h.basic,
          'Content-Type': 'application/x-www-form-urlencoded',
        })
      ).text(),
    ).toBe('0');
  });

  it('answers a JSON body that holds no event objects with 0, never 500', async () => {
    const answers: Record<string, unknown> = {};
    for (const body of ['[null]', '[1]', '["x"]', '[[]]', 'null', 'true']) {
      const answer = await h.post('/track?verbose=1', body, { 'Content-Type': 'application/json' });
      answers[body] = { status: answer.status, body: await answer.json() };
    }
    const notObjects = { status: 200, body: { error: 'event 0: each event must be a JSON object', status: 0 } };
    const notEvents = { status: 200, body: { error: 'request body must be a JSON array of events', status: 0 } };
    expect(answers).toEqual({
      '[null]': notObjects,
      '[1]': notObjects,
      '["x"]': notObjects,
      '[[]]': notObjects,
      null: notEvents,
      true: notEvents,
    });
  });

  it('takes the legacy /import transport of the server SDKs and answers 1', async () => {
    const event = {
      event: 'Legacy',
      properties: { time: nowSeconds() - 10, distinct_id: 'srv', token: h.project.token },
    };
    const get = await fetch(`${h.app.baseUrl}/import?ip=0&verbose=0&data=${encodeURIComponent(b64(event))}`, {
      headers: { Authorization: h.basic },
    });
    expect(await get.text()).toBe('1');
    const post = await h.post('/import', `data=${b64([event, event])}`, {
      Authorization: h.basic,
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    expect(await post.text()).toBe('1');
    // Without $insert_id each copy is its own event.
    await eventually(async () => expect(await h.stored("event = 'Legacy'")).toHaveLength(3));
    const unauthorized = await fetch(`${h.app.baseUrl}/import?verbose=1&data=${encodeURIComponent(b64(event))}`);
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toMatchObject({ status: 0 });
  });

  it("answers 413 with the real API's text, which its clients match, above the body limit", async () => {
    const over = form(JSON.stringify([trackEvent('t-over', { pad: 'p'.repeat(2_097_152) })]));
    const verbose = await h.post('/track?verbose=1', over, { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(verbose.status).toBe(413);
    expect(await verbose.json()).toEqual({ error: 'request exceeds max limit of 2097152 bytes', status: 0 });
    const plain = await h.post('/track', over, { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect([plain.status, await plain.text()]).toEqual([413, '0']);
    const legacy = await h.post('/import?verbose=1', over, {
      Authorization: h.basic,
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    expect([legacy.status, await legacy.json()]).toEqual([
      413,
      { error: 'request exceeds max limit of 2097152 bytes', status: 0 },
    ]);
  });

  it('answers 429 with Retry-After once the project passes its rate', async () => {
    const batch = Array.from({ length: 2000 }, (_, i) => trackEvent(`r-${i}`));
    let limited: Response | undefined;
    for (let i = 0; i < 60 && !limited; i++) {
      const response = await h.post('/track?verbose=1', form(JSON.stringify(batch)));
      if (response.status === 429) limited = response;
    }
    expect(limited?.status).toBe(429);
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited?.json()).toMatchObject({ status: 0, error: expect.stringContaining('rate limit') });
  });
});
