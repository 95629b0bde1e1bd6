import { ClickHouseClient } from '@analytics/clickhouse';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';
import { apiClient, createTenant, dictionaryRoot, importEvent, TestTenant } from './dictionary-harness';

describe('the data-dictionary API', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  const api = apiClient(() => service.baseUrl);
  const schemas = (tenant: TestTenant, rest = '') => `/api/app/projects/${tenant.projectId}/schemas${rest}`;

  beforeAll(async () => {
    environment = await createTestEnvironment();
    service = await startTestApp(dictionaryRoot, environment.config);
  });
  afterAll(async () => {
    await service?.close();
    await environment?.dispose();
  });

  const cart = {
    $schema: 'http://json-schema.org/draft-07/schema',
    description: 'Tracked when a user adds an item to their cart.',
    required: ['item_name'],
    metadata: { 'com.vendor': { displayName: 'Item Added', tags: ['Shopping'] } },
    properties: {
      item_name: { type: 'string', description: 'The name', examples: ['Blue Widget'] },
      item_price: { type: 'number', metadata: { 'com.vendor': { displayName: 'Price' } } },
    },
  };

  it('creates, replaces, gets, lists and deletes one schema', async () => {
    const t = await createTenant(service);
    const path = schemas(t, '/event/Added%20To%20Cart');
    expect(await api('POST', path, t.owner, cart)).toMatchObject({ status: 200, body: { status: 'ok' } });
    const entry = { entityType: 'event', name: 'Added To Cart', schemaJson: cart };
    expect((await api('GET', path, t.consumer)).body).toEqual({ status: 'ok', results: entry });
    expect((await api('GET', schemas(t), t.consumer)).body).toEqual({ status: 'ok', results: [entry] });
    expect((await api('GET', schemas(t, '/event'), t.consumer)).body).toEqual({ status: 'ok', results: [entry] });
    expect((await api('GET', schemas(t, '/profile'), t.consumer)).body).toEqual({ status: 'ok', results: [] });

    // The upload replaces the schema: properties it leaves out are gone; metadata it leaves out stays.
    expect(
      (await api('POST', path, t.admin, { description: 'v2', properties: { sku: { type: 'string' } } })).status,
    ).toBe(200);
    expect((await api('GET', path, t.consumer)).body.results.schemaJson).toEqual({
      description: 'v2',
      properties: { sku: { type: 'string' } },
      metadata: cart.metadata,
    });

    expect(await api('DELETE', path, t.owner)).toMatchObject({
      status: 200,
      body: { status: 'ok', results: { delete_count: 1 } },
    });
    expect(await api('DELETE', path, t.owner)).toMatchObject({
      status: 200,
      body: { status: 'ok', results: { delete_count: 0 } },
    });
    expect(await api('GET', path, t.consumer)).toMatchObject({
      status: 404,
      body: { status: 'error', error: 'no event schema named "Added To Cart" in project ' + t.projectId },
    });
  });

  it('merges metadata on re-upload: omitted keys stay, null removes, answered under the namespace used', async () => {
    const t = await createTenant(service);
    const path = schemas(t, '/event/Signup');
    const first = {
      metadata: {
        'com.mixpanel': {
          hidden: true,
          displayName: 'Sign up',
          tags: ['Growth'],
          owners: [{ name: 'Pat', email: 'pat@example.com' }],
        },
      },
      properties: {
        plan: { type: 'string', metadata: { 'com.mixpanel': { hidden: true, displayName: 'Plan' } } },
        source: { type: 'string' },
      },
    };
    expect((await api('POST', path, t.owner, first)).status).toBe(200);
    const second = {
      description: 'A user signed up',
      metadata: { 'com.mixpanel': { tags: null, displayName: 'Signed up' } },
      properties: {
        plan: { type: 'string', metadata: { 'com.mixpanel': { displayName: null } } },
        referrer: { type: 'string' },
      },
    };
    expect((await api('POST', path, t.owner, second)).status).toBe(200);
    expect((await api('GET', path, t.consumer)).body.results.schemaJson).toEqual({
      description: 'A user signed up',
      metadata: {
        'com.mixpanel': { hidden: true, displayName: 'Signed up', owners: [{ name: 'Pat', email: 'pat@example.com' }] },
      },
      properties: {
        plan: { type: 'string', metadata: { 'com.mixpanel': { hidden: true } } },
        referrer: { type: 'string' },
      },
    });
    // Our spec's namespace works alike; the schema is then answered under it.
    expect((await api('POST', path, t.owner, { metadata: { 'com.vendor': { hidden: false } } })).status).toBe(200);
    expect((await api('GET', path, t.consumer)).body.results.schemaJson.metadata).toEqual({
      'com.vendor': { hidden: false, displayName: 'Signed up', owners: [{ name: 'Pat', email: 'pat@example.com' }] },
    });
  });

  it('uploads in batches (schema or schemaJson), counts truncation, and deletes by entity type and whole', async () => {
    const t = await createTenant(service);
    const batch = {
      entries: [
        { entityType: 'event', name: 'A', schema: { description: 'a' } },
        { entityType: 'event', name: 'B', schemaJson: { properties: { p: { type: 'integer' } } } },
        {
          entityType: 'profile',
          name: '$user',
          schemaJson: { properties: { $email: { type: 'string', metadata: { 'com.vendor': { hidden: true } } } } },
        },
      ],
    };
    expect((await api('POST', schemas(t), t.admin, batch)).body).toEqual({
      status: 'ok',
      results: { added: 3, deleted: 0 },
    });
    const listed = (await api('GET', schemas(t), t.consumer)).body.results;
    expect(listed.map((e: { entityType: string; name: string }) => `${e.entityType}/${e.name}`)).toEqual([
      'event/A',
      'event/B',
      'profile/$user',
    ]);

    const truncating = {
      truncate: true,
      entries: [
        { entityType: 'event', name: 'C', schema: {} },
        { entityType: 'profile', name: '$user', schema: { description: 'users' } },
      ],
    };
    expect((await api('POST', schemas(t), t.admin, truncating)).body).toEqual({
      status: 'ok',
      results: { added: 2, deleted: 3 },
    });
    // Truncation came first: nothing was left to merge with.
    expect((await api('GET', schemas(t, '/profile/%24user'), t.consumer)).body.results.schemaJson).toEqual({
      description: 'users',
    });

    expect((await api('DELETE', schemas(t, '/profile'), t.owner)).body).toEqual({
      status: 'ok',
      results: { delete_count: 1 },
    });
    expect((await api('DELETE', schemas(t), t.owner)).body).toEqual({ status: 'ok', results: { delete_count: 1 } });
    expect((await api('GET', schemas(t), t.consumer)).body).toEqual({ status: 'ok', results: [] });
  });

  it('refuses bad requests with 400 in the app error shape, without counting them against the limit', async () => {
    const t = await createTenant(service);
    const refusals: [string, string, unknown, string][] = [
      ['POST', '/group/G', {}, 'entityType must be event or profile, got "group"'],
      ['GET', '/group', undefined, 'entityType must be event or profile, got "group"'],
      ['GET', '/group/G', undefined, 'entityType must be event or profile'],
      ['DELETE', '/group', undefined, 'entityType must be event or profile'],
      [
        'POST',
        '/event/E',
        { properties: { a: { type: 'date' } } },
        'schema.properties.a.type: is required, one of string, number, boolean, array, object, integer, null',
      ],
      ['POST', '/event/E', { properties: { a: { description: 'no type' } } }, 'schema.properties.a.type: is required'],
      [
        'POST',
        '/event/E',
        { metadata: { 'com.vendor': { color: 'red' } } },
        'schema.metadata.com.vendor.color: unknown metadata key; known keys are displayName, hidden, dropped, $source, tags, owners',
      ],
      [
        'POST',
        '/event/E',
        { properties: { a: { type: 'string', metadata: { 'com.vendor': { tags: ['x'] } } } } },
        'schema.properties.a.metadata.com.vendor.tags: unknown metadata key',
      ],
      [
        'POST',
        '/profile/$user',
        { metadata: { 'com.vendor': { dropped: true } } },
        'schema.metadata.com.vendor.dropped: only event schemas can drop data',
      ],
      ['POST', '', { entries: 'all' }, 'entries must be an array'],
      ['POST', '', { entries: [], truncate: 'yes' }, 'truncate must be a boolean value'],
      ['POST', '', { entries: [], extra: 1 }, 'property extra should not exist'],
      [
        'POST',
        '',
        { entries: [{ entityType: 'event', name: 'E', schema: {}, schemaJson: {} }] },
        'entries[0]: give the schema as either schema or schemaJson',
      ],
      [
        'POST',
        '',
        {
          entries: [
            { entityType: 'event', name: 'E', schema: {} },
            { entityType: 'lookup', name: 'L', schema: {} },
          ],
        },
        'entityType must be event or profile, got "lookup"',
      ],
      ['POST', '', '{"entries": [', 'request body is not valid JSON or form data'],
    ];
    for (const [method, rest, body, error] of refusals) {
      const answer = await api(method, schemas(t, rest), t.owner, body);
      expect({ method, rest, status: answer.status, body: answer.body }).toEqual({
        method,
        rest,
        status: 400,
        body: { status: 'error', error: expect.stringContaining(error) },
      });
    }
    // None of those counted: five writes still pass.
    for (let i = 0; i < 5; i++) expect((await api('POST', schemas(t, `/event/E${i}`), t.owner, {})).status).toBe(200);
  });

  it('lets consumers read and only owners and admins write', async () => {
    const t = await createTenant(service);
    for (const caller of [t.analyst, t.consumer]) {
      expect(await api('POST', schemas(t, '/event/E'), caller, {})).toMatchObject({
        status: 403,
        body: { status: 'error', error: expect.stringContaining('admin role') },
      });
      expect((await api('POST', schemas(t), caller, { entries: [] })).status).toBe(403);
      expect((await api('DELETE', schemas(t), caller)).status).toBe(403);
      expect((await api('DELETE', schemas(t, '/event'), caller)).status).toBe(403);
      expect((await api('DELETE', schemas(t, '/event/E'), caller)).status).toBe(403);
      expect((await api('GET', schemas(t), caller)).status).toBe(200);
      expect((await api('GET', schemas(t, '/seen'), caller)).status).toBe(200);
    }
    expect((await api('POST', schemas(t, '/event/E'), t.secret, {})).status).toBe(200); // the project secret acts as admin
    const stranger = await createTenant(service);
    expect((await api('GET', schemas(t), stranger.owner)).status).toBe(403);
    expect((await api('GET', schemas(t), 'Basic bm9ib2R5OnNlY3JldA==')).status).toBe(401);
  });

  it('limits writes to 5 a minute per organization: 429 with Retry-After, reads and other organizations unaffected', async () => {
    const t = await createTenant(service);
    const writes = [
      () => api('POST', schemas(t, '/event/One'), t.owner, {}),
      () => api('POST', schemas(t), t.admin, { entries: [{ entityType: 'event', name: 'Two', schema: {} }] }),
      () => api('DELETE', schemas(t, '/event/One'), t.owner),
      () => api('DELETE', schemas(t, '/event'), t.owner),
      () => api('DELETE', schemas(t), t.secret),
    ];
    for (const write of writes) expect((await write()).status).toBe(200);
    const refused = await api('POST', schemas(t, '/event/Six'), t.owner, {});
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      status: 'error',
      error: 'too many schema changes: at most 5 per minute per organization',
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect((await api('DELETE', schemas(t), t.owner)).status).toBe(429);
    expect((await api('GET', schemas(t), t.consumer)).status).toBe(200);
    const other = await createTenant(service);
    expect((await api('POST', schemas(other, '/event/Six'), other.owner, {})).status).toBe(200);
  });

  it('lists the events and properties received beside those described, with hidden and dropped', async () => {
    const t = await createTenant(service);
    const sent = [
      importEvent('Played', { level: 3, mode: 'solo' }),
      importEvent('Played', { level: 4, score: 10 }),
      importEvent('Signup', { plan: 'pro' }),
    ];
    expect((await api('POST', '/import', t.secret, sent)).status).toBe(200);
    const described = {
      entries: [
        {
          entityType: 'event',
          name: 'Signup',
          schema: {
            metadata: { 'com.vendor': { hidden: true } },
            properties: {
              plan: { type: 'string' },
              coupon: { type: 'string', metadata: { 'com.vendor': { dropped: true } } },
            },
          },
        },
        { entityType: 'event', name: 'Churned', schema: {} },
      ],
    };
    expect((await api('POST', schemas(t), t.owner, described)).status).toBe(200);
    const seen = await api('GET', schemas(t, '/seen'), t.consumer);
    expect(seen.status).toBe(200);
    expect(new Date(seen.body.results.since).getTime()).toBeCloseTo(Date.now() - 30 * 86_400_000, -5);
    const property = (
      name: string,
      seenIt: boolean,
      describedIt: boolean,
      flags: { hidden?: boolean; dropped?: boolean } = {},
    ) => ({ name, seen: seenIt, described: describedIt, hidden: false, dropped: false, ...flags });
    expect(seen.body.results.events).toEqual([
      {
        name: 'Played',
        count: 2,
        described: false,
        hidden: false,
        dropped: false,
        properties: [property('level', true, false), property('mode', true, false), property('score', true, false)],
      },
      {
        name: 'Signup',
        count: 1,
        described: true,
        hidden: true,
        dropped: false,
        properties: [property('coupon', false, true, { dropped: true }), property('plan', true, true)],
      },
      { name: 'Churned', count: 0, described: true, hidden: false, dropped: false, properties: [] },
    ]);
  });

  it('drops a dropped event and a dropped property for every request after the change, counting them', async () => {
    const t = await createTenant(service);
    const change = {
      entries: [
        { entityType: 'event', name: 'Noise', schema: { metadata: { 'com.vendor': { dropped: true } } } },
        {
          entityType: 'event',
          name: 'Signup',
          schema: { properties: { password: { type: 'string', metadata: { 'com.vendor': { dropped: true } } } } },
        },
      ],
    };
    const before = [
      importEvent('Noise', { run: 'before' }),
      importEvent('Signup', { run: 'before', password: 'hunter2' }),
    ];
    expect((await api('POST', '/import', t.secret, before)).body).toMatchObject({ num_records_imported: 2 });
    expect((await api('POST', schemas(t), t.owner, change)).status).toBe(200);
    const after = [
      importEvent('Noise', { run: 'after' }),
      importEvent('Signup', { run: 'after', password: 'hunter2', plan: 'pro' }),
      importEvent('Played', { run: 'after' }),
    ];
    expect((await api('POST', '/import', t.secret, after)).body).toMatchObject({
      code: 200,
      num_records_imported: 2,
      status: 'OK',
    });
    const tracked = [
      { event: 'Noise', properties: { token: t.token, distinct_id: 'user-2', run: 'tracked' } },
      { event: 'Signup', properties: { token: t.token, distinct_id: 'user-2', run: 'tracked', password: 'hunter2' } },
    ];
    const track = await fetch(`${service.baseUrl}/track?verbose=1`, {
      method: 'POST',
      body: new URLSearchParams({ data: JSON.stringify(tracked) }),
    });
    expect(await track.json()).toEqual({ error: null, status: 1 });

    const stored = await service.app.get(ClickHouseClient).query({
      query:
        'SELECT event, properties FROM events FINAL WHERE project_id = {project:UInt32} ORDER BY event, properties',
      query_params: { project: t.projectId },
      format: 'JSONEachRow',
    });
    expect(
      (await stored.json<{ event: string; properties: string }>()).map((row) => ({
        event: row.event,
        properties: JSON.parse(row.properties),
      })),
    ).toEqual([
      { event: 'Noise', properties: { run: 'before' } },
      { event: 'Played', properties: { run: 'after' } },
      { event: 'Signup', properties: { run: 'after', plan: 'pro' } },
      { event: 'Signup', properties: { run: 'before', password: 'hunter2' } },
      { event: 'Signup', properties: { run: 'tracked' } },
    ]);
    const metrics = await (await fetch(`${service.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/analytics_ingest_dropped_total\{kind="event"\} 2\n/);
    expect(metrics).toMatch(/analytics_ingest_dropped_total\{kind="property"\} 2\n/);

    // Deleting the schema lets the event through again, at once in this process.
    expect((await api('DELETE', schemas(t, '/event/Noise'), t.owner)).status).toBe(200);
    expect((await api('POST', '/import', t.secret, [importEvent('Noise', { run: 'undropped' })])).body).toMatchObject({
      num_records_imported: 1,
    });
  });
});
