import { ClickHouseClient } from '@analytics/clickhouse';
import { ProjectsService } from '@analytics/projects';
import { createTestEnvironment, eventually, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';
import { get } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { ingestAndExport, runningExportQueries } from './export-test-app';

const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const utcSeconds = (day: string, time = '00:00:00') => Date.parse(`${day}T${time}Z`) / 1000;

describe('GET /api/2.0/export', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  let auth: string;
  let other: { auth: string; id: number };
  let projectId: number;

  const exportRaw = (query: string, headers: Record<string, string> = {}) =>
    fetch(`${service.baseUrl}/api/2.0/export?${query}`, { headers: { Authorization: auth, ...headers } });
  const exported = async (query: string) => {
    const response = await exportRaw(query);
    expect(response.status).toBe(200);
    const text = await response.text();
    return text === ''
      ? []
      : text
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line) as { event: string; properties: Record<string, unknown> });
  };
  const send = (events: object[], credentials = auth) =>
    fetch(`${service.baseUrl}/import`, {
      method: 'POST',
      body: JSON.stringify(events),
      headers: { Authorization: credentials, 'Content-Type': 'application/json' },
    });

  beforeAll(async () => {
    environment = await createTestEnvironment({
      env: { EXPORT_LIMIT_PER_SECOND: '1000', EXPORT_LIMIT_PER_HOUR: '1000', EXPORT_LIMIT_CONCURRENT: '1' },
    });
    service = await startTestApp(ingestAndExport, environment.config);
    const projects = service.app.get(ProjectsService);
    const organization = await projects.createOrganization('Export');
    const main = await projects.createProject(organization.id, 'Main');
    const second = await projects.createProject(organization.id, 'Other');
    projectId = main.project.id;
    auth = `Basic ${Buffer.from(`${main.secret}:`).toString('base64')}`;
    other = { auth: `Basic ${Buffer.from(`${second.secret}:`).toString('base64')}`, id: second.project.id };
  });
  afterAll(async () => {
    await service.close();
    await environment.dispose();
  });

  it('gives back every event exactly as imported, value for value and type for type', async () => {
    const day = daysAgo(3);
    const properties = {
      text: 'héllo "world" \\ 😀 \n tab\t',
      int: 42,
      negative: -7,
      float: 3.141592653589793,
      tiny: 1e-7,
      yes: true,
      no: false,
      nothing: null,
      list: [1, 'two', [3], { four: 4 }],
      object: { nested: { deep: 'x' }, empty: {} },
      emptyList: [],
      $browser: 'Chrome',
    };
    const sent = {
      event: 'Round trip',
      properties: {
        time: utcSeconds(day, '12:34:56') + 0.789,
        distinct_id: 'rt-user',
        $insert_id: 'rt-1',
        ...properties,
      },
    };
    const body = JSON.stringify([sent]).replace('"int":42', '"int":42,"huge":123456789012345678901234');
    expect(
      (
        await fetch(`${service.baseUrl}/import`, {
          method: 'POST',
          body,
          headers: { Authorization: auth, 'Content-Type': 'application/json' },
        })
      ).status,
    ).toBe(200);

    const response = await exportRaw(`from_date=${day}&to_date=${day}&event=${encodeURIComponent('["Round trip"]')}`);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await response.text();
    expect(text).toContain('"huge":123456789012345678901234');
    const [line] = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; properties: Record<string, unknown> });
    const { mp_processing_time_ms: processed, ...rest } = line.properties;
    expect(line.event).toBe('Round trip');
    expect(rest).toEqual({
      time: utcSeconds(day, '12:34:56'),
      distinct_id: 'rt-user',
      $insert_id: 'rt-1',
      ...properties,
      huge: 123456789012345678901234,
    });
    expect(Object.keys(line.properties).slice(0, 4)).toEqual([
      'time',
      'distinct_id',
      '$insert_id',
      'mp_processing_time_ms',
    ]);
    expect(typeof processed).toBe('number');
    const inMs = await exported(
      `from_date=${day}&to_date=${day}&time_in_ms=true&event=${encodeURIComponent('["Round trip"]')}`,
    );
    expect(inMs[0].properties.time).toBe(utcSeconds(day, '12:34:56') * 1000 + 789);
  });

  it('includes both UTC midnights of the range and nothing outside it', async () => {
    const first = daysAgo(10);
    const last = daysAgo(9);
    const at = (seconds: number, id: string) => ({
      event: 'Edge',
      properties: { time: seconds, distinct_id: 'e', $insert_id: id },
    });
    const lastEnd = utcSeconds(last) + 86_400;
    await send([
      at(utcSeconds(first) - 0.001, 'before'),
      at(utcSeconds(first), 'first-midnight'),
      at(lastEnd - 0.001, 'last-millisecond'),
      at(lastEnd, 'next-midnight'),
    ]);
    const ids = (await exported(`from_date=${first}&to_date=${last}&event=${encodeURIComponent('["Edge"]')}`)).map(
      (e) => e.properties.$insert_id,
    );
    expect(ids.sort()).toEqual(['first-midnight', 'last-millisecond']);
  });

  it('filters by event names and stops at limit', async () => {
    const day = daysAgo(2);
    const events = Array.from({ length: 300 }, (_, i) => ({
      event: i % 3 ? 'Many' : 'Few',
      properties: { time: utcSeconds(day, '08:00:00') + i, distinct_id: `u${i % 11}`, $insert_id: `m-${i}` },
    }));
    await send(events);
    expect(await exported(`from_date=${day}&to_date=${day}&event=${encodeURIComponent('["Few"]')}`)).toHaveLength(100);
    expect(
      await exported(`from_date=${day}&to_date=${day}&event=${encodeURIComponent('["Few","Many"]')}`),
    ).toHaveLength(300);
    expect(await exported(`from_date=${day}&to_date=${day}&limit=17`)).toHaveLength(17);
  });

  it('filters with a where expression, and answers a bad one with 400 naming the position', async () => {
    const day = daysAgo(2);
    const where = (expression: string) => `from_date=${day}&to_date=${day}&where=${encodeURIComponent(expression)}`;
    const few = await exported(
      `${where('properties["$insert_id"] in ["m-0", "m-3", "m-4"]')}&event=${encodeURIComponent('["Few"]')}`,
    );
    expect(few.map((e) => e.properties.$insert_id).sort()).toEqual(['m-0', 'm-3']);
    const u1OrU2 = Array.from({ length: 300 }, (_, i) => i % 11).filter((u) => u === 1 || u === 2).length;
    expect(
      await exported(where('properties["distinct_id"] == "u1" or properties["distinct_id"] == "u2"')),
    ).toHaveLength(u1OrU2);
    expect(await exported(where('properties["nope"] == "\\"; DROP TABLE events; --"'))).toHaveLength(0);
    const bad = await exportRaw(where('properties["x" == 1'));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/^where: at position \d+: expected/);
  });

  it('compresses with gzip when asked', async () => {
    const day = daysAgo(2);
    const response = await fetch(`${service.baseUrl}/api/2.0/export?from_date=${day}&to_date=${day}`, {
      headers: { Authorization: auth, 'Accept-Encoding': 'gzip' },
      // undici decompresses on its own; read the raw bytes to prove they are gzip.
    });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect((await response.text()).split('\n').filter(Boolean)).toHaveLength(300);
    const raw = await new Promise<Buffer>((resolve, reject) => {
      const url = new URL(`${service.baseUrl}/api/2.0/export?from_date=${day}&to_date=${day}`);
      get(url, { headers: { Authorization: auth, 'Accept-Encoding': 'gzip' } }, (res: NodeJS.ReadableStream) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks)));
      }).on('error', reject);
    });
    expect(gunzipSync(raw).toString().trimEnd().split('\n')).toHaveLength(300);
  });

  it('answers every bad parameter with a 400 naming it', async () => {
    const cases: [string, string][] = [
      ['to_date=2024-01-01', 'from_date is required (yyyy-mm-dd)'],
      ['from_date=2024-13-01&to_date=2024-01-01', 'from_date must be a date as yyyy-mm-dd, got "2024-13-01"'],
      ['from_date=2024-01-02&to_date=2024-01-01', 'from_date 2024-01-02 is after to_date 2024-01-01'],
      [`from_date=2024-01-01&to_date=2999-01-01`, 'to_date cannot be later than today'],
      [
        'from_date=2024-01-01&to_date=2024-01-02&event=Signup',
        'event must be a JSON array of event names, as in ["Signed up","Purchase"]',
      ],
      [
        'from_date=2024-01-01&to_date=2024-01-02&limit=100001',
        'limit must be a whole number from 1 to 100000, got "100001"',
      ],
      ['from_date=2024-01-01&to_date=2024-01-02&limit=0', 'limit must be a whole number from 1 to 100000, got "0"'],
      ['from_date=2024-01-01&to_date=2024-01-02&time_in_ms=maybe', 'time_in_ms must be true or false, got "maybe"'],
    ];
    for (const [query, error] of cases) {
      const response = await exportRaw(query);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ request: `/api/2.0/export?${query}`, error });
    }
  });

  it('refuses a token, a wrong secret and a foreign project', async () => {
    const query = `from_date=${today()}&to_date=${today()}`;
    const token = (await service.app.get(ProjectsService).findById(projectId))!.token;
    expect(
      (await exportRaw(query, { Authorization: `Basic ${Buffer.from(`${token}:`).toString('base64')}` })).status,
    ).toBe(401);
    expect((await exportRaw(query, { Authorization: 'Basic d3Jvbmc6' })).status).toBe(401);
    expect((await exportRaw(query, { Authorization: '' })).status).toBe(401);
    const foreign = await exportRaw(`${query}&project_id=${other.id}`);
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({
      error: `these credentials do not give access to project ${other.id}`,
    });
    expect(
      await (
        await fetch(`${service.baseUrl}/api/2.0/export/?${query}`, { headers: { Authorization: other.auth } })
      ).text(),
    ).toBe('');
  });

  it('holds a concurrency slot while streaming, and frees it when the client disconnects mid-stream', async () => {
    const day = daysAgo(1);
    for (let batch = 0; batch < 30; batch++) {
      const events = Array.from({ length: 2000 }, (_, i) => ({
        event: `Bulk ${i % 3}`,
        properties: {
          time: utcSeconds(day, '10:00:00') + i,
          distinct_id: `b${i}`,
          $insert_id: `b-${batch}-${i}`,
          pad: 'x'.repeat(250),
        },
      }));
      expect((await send(events)).status).toBe(200);
    }
    const response = await exportRaw(`from_date=${day}&to_date=${day}`);
    const reader = response.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    // The first export is still streaming (we stopped reading): the limit of one at a time holds.
    expect((await exportRaw(`from_date=${day}&to_date=${day}&limit=1`)).status).toBe(429);
    await reader.cancel();
    const after = await eventually(async () => {
      const next = await exportRaw(`from_date=${day}&to_date=${day}&limit=5`);
      expect(next.status).toBe(200);
      return next.text();
    });
    expect(after.trimEnd().split('\n')).toHaveLength(5);
  });

  it('exports a page of many event names whole, each event once', async () => {
    const day = daysAgo(6);
    const names = Array.from({ length: 45 }, (_, i) => `Kind ${i}`);
    await send(
      names.flatMap((event, i) =>
        [0, 1].map((copy) => ({
          event,
          properties: {
            time: utcSeconds(day, '07:00:00') + i,
            distinct_id: `k${copy}`,
            $insert_id: `kind-${i}-${copy}`,
          },
        })),
      ),
    );
    const lines = await eventually(async () => {
      const all = await exported(`from_date=${day}&to_date=${day}`);
      expect(all).toHaveLength(90);
      return all;
    });
    expect(lines.map((line) => line.properties.$insert_id).sort()).toEqual(
      names.flatMap((_, i) => [`kind-${i}-0`, `kind-${i}-1`]).sort(),
    );
  });

  describe('large events', () => {
    const day = daysAgo(5);
    // Strings are cut at 255 characters, so size comes from lists: ~190 KB an event, 8 per request.
    const item = (event: number, list: number, index: number) => `${event}-${list}-${index}-`.padEnd(250, 'abcdefghij');
    const large = Array.from({ length: 120 }, (_, n) => ({
      event: 'Large',
      properties: {
        time: utcSeconds(day, '09:00:00') + n,
        distinct_id: `big-${n % 7}`,
        $insert_id: `large-${n}`,
        a: Array.from({ length: 250 }, (_, i) => item(n, 0, i)),
        b: Array.from({ length: 250 }, (_, i) => item(n, 1, i)),
        c: Array.from({ length: 250 }, (_, i) => item(n, 2, i)),
      },
    }));
    const query = `from_date=${day}&to_date=${day}&event=${encodeURIComponent('["Large"]')}`;
    const running = () => runningExportQueries(service);

    beforeAll(async () => {
      for (let i = 0; i < large.length; i += 8) expect((await send(large.slice(i, i + 8))).status).toBe(200);
      await eventually(async () => expect(await exported(`${query}&limit=1000`)).toHaveLength(large.length), {
        timeoutMs: 60_000,
        intervalMs: 500,
      });
    }, 120_000);

    it('exports events of ~190 KB whole and unchanged, and stops at limit', async () => {
      const text = await (await exportRaw(query)).text();
      expect(text.length).toBeGreaterThan(20_000_000);
      const lines = text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { event: string; properties: Record<string, unknown> });
      expect(lines.map((line) => line.properties.$insert_id).sort()).toEqual(
        large.map((event) => event.properties.$insert_id).sort(),
      );
      for (const line of lines) {
        const { mp_processing_time_ms: _, ...properties } = line.properties;
        expect(properties).toEqual(
          large.find((event) => event.properties.$insert_id === properties.$insert_id)!.properties,
        );
      }
      const limited = (await (await exportRaw(`${query}&limit=3`)).text()).trimEnd().split('\n');
      expect(limited.map((line) => (JSON.parse(line) as { properties: { a: string[] } }).properties.a)).toHaveLength(3);
    });

    it('lets the engine serve other queries while a client is slow, and ends the query when the client leaves', async () => {
      const response = await exportRaw(query);
      const reader = response.body!.getReader();
      expect((await reader.read()).done).toBe(false);
      // We stopped reading: the export's query waits on us, holding no lock on anyone else.
      await eventually(async () => expect(await running()).toBe(1));
      const count = await service.app
        .get(ClickHouseClient)
        .query({ query: "SELECT count() AS n FROM events WHERE event = 'Large'", format: 'JSONEachRow' });
      expect((await count.json<{ n: number }>())[0].n).toBeGreaterThanOrEqual(large.length);
      expect(
        (
          await send([
            {
              event: 'During export',
              properties: { time: utcSeconds(day, '11:00:00'), distinct_id: 'slow', $insert_id: 'during-1' },
            },
          ])
        ).status,
      ).toBe(200);
      await reader.cancel();
      await eventually(async () => expect(await running()).toBe(0));
      const after = await eventually(async () => {
        const next = await exportRaw(
          `from_date=${day}&to_date=${day}&event=${encodeURIComponent('["During export"]')}`,
        );
        expect(next.status).toBe(200);
        const text = await next.text();
        expect(text).toContain('during-1');
        return text;
      });
      expect(after.trimEnd().split('\n')).toHaveLength(1);
    });
  });
});

describe('export rate limits', () => {
  it('answers 429 with Retry-After past 3 queries a second', async () => {
    const environment = await createTestEnvironment();
    const service = await startTestApp(ingestAndExport, environment.config);
    try {
      const projects = service.app.get(ProjectsService);
      const { project, secret } = await projects.createProject((await projects.createOrganization('Limits')).id, 'P');
      void project;
      const get = () =>
        fetch(`${service.baseUrl}/api/2.0/export?from_date=${today()}&to_date=${today()}`, {
          headers: { Authorization: `Basic ${Buffer.from(`${secret}:`).toString('base64')}` },
        });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await get()).status);
      expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
      expect(statuses[3]).toBe(429);
      const limited = await get();
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await limited.json()).toMatchObject({ error: expect.stringContaining('rate limit exceeded') });
    } finally {
      await service.close();
      await environment.dispose();
    }
  });
});
