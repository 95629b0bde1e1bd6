import { ProfilesHarness, queried, startProfilesHarness } from './profiles-harness';

const base64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
const VERBOSE_OK = JSON.stringify({ error: null, status: 1 });

describe('/engage and /groups without a broker (applied before answering)', () => {
  let h: ProfilesHarness;

  beforeAll(async () => {
    h = await startProfilesHarness();
  });
  afterAll(() => h?.close());

  const set = (id: string, properties: object, extra: object = {}) => ({
    $token: h.project.token,
    $distinct_id: id,
    $set: properties,
    ...extra,
  });

  describe('the SDK transport', () => {
    it('takes data as a form field, a query parameter (base64, + left raw) or a JSON body, with or without a trailing slash', async () => {
      const url = h.app.baseUrl;
      const form = (data: string) => ({
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `data=${data}`,
      });
      const answers = await Promise.all([
        fetch(`${url}/engage?data=${encodeURIComponent(base64(set('t1', { via: 'get' })))}`),
        fetch(`${url}/engage/`, form(base64([set('t2', { via: 'raw base64 form' })]))),
        fetch(`${url}/engage`, form(encodeURIComponent(JSON.stringify(set('t3', { via: 'json form' }))))),
        fetch(`${url}/engage/`, {
          method: 'POST',
          headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
          body: `data=${encodeURIComponent(base64(set('t4', { via: 'beacon' })))}`,
        }),
        fetch(`${url}/engage`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify([set('t5', { via: 'json array' })]),
        }),
        fetch(`${url}/engage`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(set('t6', { via: 'json object' })),
        }),
      ]);
      expect(await Promise.all(answers.map((a) => a.text()))).toEqual(['1', '1', '1', '1', '1', '1']);
      const stored = await queried(h, ['t1', 't2', 't3', 't4', 't5', 't6']);
      expect([...stored.values()].map((p) => p.via).sort()).toEqual([
        'beacon',
        'get',
        'json array',
        'json form',
        'json object',
        'raw base64 form',
      ]);
    });

    it('answers 1 / 0, or verbose JSON, always with HTTP 200', async () => {
      expect(await h.send('engage', [set('v1', { a: 1 })])).toEqual({ status: 200, text: '1' });
      expect(await h.send('engage', [set('v1', { a: 1 })], 'verbose=1')).toEqual({ status: 200, text: VERBOSE_OK });
      expect(await h.send('engage', [{ $distinct_id: 'v1', $set: {} }])).toEqual({ status: 200, text: '0' });
    });

    it('answers data that holds no update objects with 0, never 500, in every place data can be', async () => {
      const notObjects = 'each update must be a JSON object';
      const notData = 'data must be JSON or base64-encoded JSON of an object or an array';
      const notUpdates = 'request body must be a JSON array of events';
      const expected: Record<string, [string, string]> = {
        '[null]': [notObjects, notObjects],
        '[1]': [notObjects, notObjects],
        '["x"]': [notObjects, notObjects],
        '[[]]': [notObjects, notObjects],
        null: [notData, notUpdates],
        true: [notData, notUpdates],
      };
      const answers: Record<string, unknown[]> = {};
      for (const data of Object.keys(expected)) {
        answers[data] = [];
        for (const endpoint of ['engage', 'groups'] as const) {
          const sent = [
            fetch(`${h.app.baseUrl}/${endpoint}?verbose=1`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
              body: `data=${encodeURIComponent(data)}`,
            }),
            fetch(`${h.app.baseUrl}/${endpoint}?verbose=1&data=${encodeURIComponent(base64(JSON.parse(data)))}`),
            fetch(`${h.app.baseUrl}/${endpoint}?verbose=1`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: data,
            }),
          ];
          for (const answer of await Promise.all(sent))
            answers[data].push({ status: answer.status, body: await answer.json() });
        }
      }
      const shaped = ([viaData, viaJsonBody]: [string, string]) =>
        [viaData, viaData, viaJsonBody].map((error) => ({ status: 200, body: { error, status: 0 } }));
      expect(answers).toEqual(
        Object.fromEntries(
          Object.entries(expected).map(([data, errors]) => [data, [...shaped(errors), ...shaped(errors)]]),
        ),
      );
      expect(await h.send('engage', [null])).toEqual({ status: 200, text: '0' });
      expect(await h.send('groups', [null], 'strict=1')).toEqual({
        status: 200,
        text: JSON.stringify({ error: notObjects, status: 0, failed_records: [{ index: 0, message: notObjects }] }),
      });
    });

    it('names a missing $token exactly as the real API does', async () => {
      const answer = await h.send('engage', [{ $distinct_id: 'x', $set: { a: 1 } }], 'verbose=1');
      expect(answer).toEqual({ status: 200, text: JSON.stringify({ error: '$token, missing or empty', status: 0 }) });
    });

    it('refuses an unknown token, a request without data and one of more than 2000 records', async () => {
      const unknown = await h.send('engage', [{ $token: 'not-a-token', $distinct_id: 'x', $set: {} }], 'verbose=1');
      expect(JSON.parse(unknown.text)).toEqual({ error: '$token, not the token of any project', status: 0 });
      const empty = await fetch(`${h.app.baseUrl}/engage?verbose=1`, { method: 'POST' });
      expect(await empty.json()).toEqual({ error: 'no data: send the updates in a `data` field', status: 0 });
      const many = await h.send(
        'engage',
        Array.from({ length: 2001 }, (_, i) => set(`m${i}`, {})),
        'verbose=1',
      );
      expect(JSON.parse(many.text)).toEqual({ error: 'request has 2001 updates; at most 2000 are allowed', status: 0 });
      expect((await queried(h, ['m0'])).size).toBe(0);
    });

    it('with strict=1 answers in JSON listing every failed record, and applies the valid ones', async () => {
      const records = [
        set('s1', { plan: 'pro' }),
        set('s2', { $custom: 1 }),
        { $token: h.project.token, $distinct_id: 's3', $add: { n: 'one' } },
        { $distinct_id: 's4', $set: {} },
      ];
      const answer = await h.send('engage', records, 'strict=1');
      expect(JSON.parse(answer.text)).toEqual({
        error: '"$custom": custom property names must not start with $ (and 2 more failed records)',
        status: 0,
        failed_records: [
          { index: 1, $distinct_id: 's2', message: '"$custom": custom property names must not start with $' },
          { index: 2, $distinct_id: 's3', message: '$add.n must be a number' },
          { index: 3, $distinct_id: 's4', message: '$token, missing or empty' },
        ],
      });
      expect([...(await queried(h, ['s1', 's2', 's3', 's4'])).keys()]).toEqual(['s1']);
      expect(await h.send('engage', [set('s5', { $email: 'a@b.c' })], 'strict=1')).toEqual({
        status: 200,
        text: VERBOSE_OK,
      });
      // Without strict the real API stores custom $ names as sent.
      expect(await h.send('engage', [set('s6', { $custom: 1 })])).toEqual({ status: 200, text: '1' });
    });

    it('reports an update that cannot apply to the stored profile, and applies the rest of the request', async () => {
      const records = [
        set('a1', { s: 'text' }),
        { $token: h.project.token, $distinct_id: 'a1', $add: { s: 1 } },
        set('a1', { after: true }),
      ];
      const answer = await h.send('engage', records, 'strict=1');
      expect(JSON.parse(answer.text).failed_records).toEqual([
        { index: 1, $distinct_id: 'a1', message: '$add: "s" holds a string, not a number' },
      ]);
      expect((await queried(h, ['a1'])).get('a1')).toMatchObject({ s: 'text', after: true });
    });
  });

  describe('profile limits', () => {
    it('refuses an update that would take a list past 256 KiB, in the verbose and strict answers, and applies the rest', async () => {
      const union = (values: string[]) => ({
        $token: h.project.token,
        $distinct_id: 'big-list',
        $union: { tags: values },
      });
      // 254 values of 255 characters: about 65 kB a record; the fifth takes the list past 262,144 bytes.
      const values = (from: number) => Array.from({ length: 254 }, (_, i) => String(from + i).padStart(255, 'x'));
      const records = [0, 1, 2, 3, 4].map((n) => union(values(n * 254)));
      const answer = await h.send('engage', [...records, set('big-list', { after: true })], 'verbose=1');
      expect(JSON.parse(answer.text)).toEqual({
        error: expect.stringMatching(/^\$union: "tags" would hold \d+ bytes; a property holds at most 262144$/),
        status: 0,
      });
      const stored = (await h.stored(['big-list'])).get('big-list')!;
      expect([(stored.tags as string[]).length, stored.after]).toEqual([4 * 254, true]);
      const strict = await h.send(
        'engage',
        [union(values(5 * 254).slice(0, 1)), union(values(0).slice(0, 3))],
        'strict=1',
      );
      expect(JSON.parse(strict.text)).toEqual({
        error: expect.stringMatching(/^\$union: "tags" would hold/),
        status: 0,
        failed_records: [
          {
            index: 0,
            $distinct_id: 'big-list',
            message: expect.stringMatching(/^\$union: "tags" would hold \d+ bytes/),
          },
        ],
      });
    });

    it('refuses an update that would give a profile more than 2000 properties', async () => {
      const wide = (n: number) =>
        set('wide', Object.fromEntries(Array.from({ length: 254 }, (_, i) => [`p${n}_${i}`, i])));
      const answer = await h.send(
        'engage',
        Array.from({ length: 8 }, (_, n) => wide(n)),
        'strict=1',
      );
      // $created and $last_seen count: 7 × 254 + 2 = 1780, the eighth record would make 2034.
      expect(JSON.parse(answer.text).failed_records).toEqual([
        {
          index: 7,
          $distinct_id: 'wide',
          message: '$set: the profile would have 2034 properties; at most 2000 are allowed',
        },
      ]);
      expect(Object.keys((await h.stored(['wide'])).get('wide')!)).toHaveLength(1780);
    });

    it('refuses at the gateway a record that alone would pass a limit', async () => {
      const huge = Array.from({ length: 254 }, (_, i) =>
        Array.from({ length: 10 }, (_, j) => `${i}-${j}`.padStart(200, 'y')),
      );
      const answer = await h.send('engage', [set('huge', { l: huge })], 'verbose=1');
      expect(JSON.parse(answer.text)).toEqual({
        error: expect.stringMatching(/^\$set\.l would hold \d+ bytes; a profile property holds at most 262144$/),
        status: 0,
      });
      expect((await h.stored(['huge'])).size).toBe(0);
    });
  });

  describe('group profiles', () => {
    const group = (key: string, id: string, operation: object) => ({
      $token: h.project.token,
      $group_key: key,
      $group_id: id,
      ...operation,
    });

    it('needs the group key defined beforehand, and names the undefined key', async () => {
      const answer = await h.send('groups', [group('company', 'acme', { $set: { name: 'Acme' } })], 'verbose=1');
      expect(JSON.parse(answer.text)).toEqual({
        error: `$group_key "company" is not defined in this project: define it first (POST /api/app/projects/${h.project.id}/group-keys)`,
        status: 0,
      });
      expect((await h.defineGroupKey('company')).status).toBe(201);
      expect(
        await h.send('groups', [group('company', 'acme', { $set: { name: 'Acme', $name: 'Acme Inc.' } })]),
      ).toEqual({ status: 200, text: '1' });
      expect(
        await h.send('groups', [
          group('company', 'acme', { $union: { plans: ['a', 'b'] } }),
          group('company', 'acme', { $remove: { plans: 'a' } }),
        ]),
      ).toEqual({
        status: 200,
        text: '1',
      });
      const { body } = await h.query({ data_group_id: 'company' });
      expect(body.results).toEqual([
        {
          $distinct_id: 'acme',
          $properties: {
            name: 'Acme',
            $name: 'Acme Inc.',
            plans: ['b'],
            $created: expect.any(String),
            $last_seen: expect.any(String),
          },
        },
      ]);
    });

    it('refuses the operations groups do not have', async () => {
      await h.defineGroupKey('team');
      const answer = await h.send('groups', [group('team', 't', { $add: { n: 1 } })], 'verbose=1');
      expect(JSON.parse(answer.text).error).toBe(
        '$add is not an operation of group profiles: use one of $set, $set_once, $unset, $union, $remove, $delete',
      );
    });

    it('manages group keys: idempotent define, list, delete (admin); unknown key 404', async () => {
      const auth = { Authorization: h.project.basic, 'Content-Type': 'application/json' };
      const keys = `${h.app.baseUrl}/api/app/projects/${h.project.id}/group-keys`;
      const first = await (await h.defineGroupKey('region')).json();
      const again = await h.defineGroupKey('region');
      expect(again.status).toBe(201);
      expect(await again.json()).toEqual(first);
      expect(first).toEqual({
        status: 'ok',
        results: { name: 'region', created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      });
      const list = (await (await fetch(keys, { headers: auth })).json()) as { results: { name: string }[] };
      expect(list.results.map((k) => k.name)).toEqual(['company', 'region', 'team']);
      expect(await (await fetch(`${keys}/region`, { method: 'DELETE', headers: auth })).json()).toEqual({
        status: 'ok',
      });
      const missing = await fetch(`${keys}/region`, { method: 'DELETE', headers: auth });
      expect([missing.status, await missing.json()]).toEqual([
        404,
        { status: 'error', error: `group key "region" is not defined in project ${h.project.id}` },
      ]);
      const bad = await fetch(keys, { method: 'POST', headers: auth, body: JSON.stringify({ name: '' }) });
      expect([bad.status, ((await bad.json()) as { status: string }).status]).toEqual([400, 'error']);
      const unknownField = await fetch(keys, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ name: 'x', extra: 1 }),
      });
      expect(unknownField.status).toBe(400);
      const answer = await h.send('groups', [group('region', 'eu', { $set: { a: 1 } })], 'verbose=1');
      expect(JSON.parse(answer.text).error).toMatch(/^\$group_key "region" is not defined/);
    });
  });

  describe('deletion', () => {
    it('removes the profile from Postgres and leaves a tombstone in the mirror, which the query no longer shows', async () => {
      await h.send('engage', [set('d1', { a: 1 }), set('d2', { b: 2 })]);
      expect(
        await h.send('engage', [{ $token: h.project.token, $distinct_id: 'd1', $delete: '', $ignore_alias: false }]),
      ).toEqual({ status: 200, text: '1' });
      expect([...(await h.stored(['d1', 'd2'])).keys()]).toEqual(['d2']);
      const rows = await h.mirrorRows(['d1']);
      expect(rows.map((r) => r.is_deleted)).toEqual([0, 1]);
      expect(Number(rows[1].version)).toBeGreaterThan(Number(rows[0].version));
      expect([...(await queried(h, ['d1', 'd2'])).keys()]).toEqual(['d2']);
      // Created again later: a new profile, above the tombstone.
      await h.send('engage', [set('d1', { again: true })]);
      expect((await queried(h, ['d1'])).get('d1')).toEqual({
        again: true,
        $created: expect.any(String),
        $last_seen: expect.any(String),
      });
    });
  });

  describe('concurrent senders', () => {
    it("apply every update once and each sender's updates in its order", async () => {
      const senders = 8;
      const rounds = 15;
      const send = async (sender: number) => {
        for (let round = 0; round < rounds; round++) {
          await h.send('engage', [
            { $token: h.project.token, $distinct_id: 'shared', $add: { total: 1 } },
            { $token: h.project.token, $distinct_id: `own-${sender}`, $append: { seen: round } },
          ]);
        }
      };
      await Promise.all(Array.from({ length: senders }, (_, sender) => send(sender)));
      const stored = await h.stored(['shared', ...Array.from({ length: senders }, (_, s) => `own-${s}`)]);
      expect(stored.get('shared')!.total).toBe(senders * rounds);
      for (let s = 0; s < senders; s++)
        expect(stored.get(`own-${s}`)!.seen).toEqual(Array.from({ length: rounds }, (_, r) => r));
    });
  });
});
