import { ClickHouseClient } from '@analytics/clickhouse';
import { GroupKeysService } from '@analytics/projects';
import { ProjectsService } from '@analytics/projects';
import { eventually } from '@analytics/testing';
import { projectScope } from '@analytics/tenancy';
import { gunzipSync } from 'node:zlib';
import { bearer, ComplianceHarness, event, nowSeconds, TestProject } from './compliance-harness';

const RETRIEVALS = '/api/app/data-retrievals/v3.0';
const DELETIONS = '/api/app/data-deletions/v3.0';

describe('compliance jobs (GDPR/CCPA) through the API, on the real engines', () => {
  let h: ComplianceHarness;
  let owner: string;

  const create = (path: string, project: TestProject, body: unknown, token = owner) =>
    h.call('POST', `${path}?token=${project.token}`, { authorization: bearer(token), body });
  const status = (path: string, project: TestProject, id: string) =>
    h.call('GET', `${path}/${id}?token=${project.token}`, { authorization: bearer(owner) });
  const finished = (path: string, project: TestProject, id: string) =>
    eventually(
      async () => {
        const answer = await status(path, project, id);
        expect(['SUCCESS', 'FAILURE', 'REVOKED']).toContain(answer.body.results.status);
        return answer.body.results;
      },
      { timeoutMs: 30_000 },
    );

  beforeAll(async () => {
    h = await ComplianceHarness.start();
    owner = await h.oauthToken(h.organizationId, 'owner');
  });
  afterAll(() => h?.close());

  describe('authentication and validation', () => {
    let project: TestProject;
    beforeAll(async () => {
      project = await h.project();
    });

    it('answers 401 without a bearer token or with a bad one, in the app API error shape', async () => {
      const none = await h.call('POST', `${DELETIONS}?token=${project.token}`, { body: { distinct_ids: ['a'] } });
      expect(none.status).toBe(401);
      expect(none.body).toEqual({ status: 'error', error: expect.any(String) });
      const bad = await h.call('GET', `${RETRIEVALS}/x?token=${project.token}`, {
        authorization: bearer('0'.repeat(48)),
      });
      expect(bad.status).toBe(401);
      expect(bad.body.status).toBe('error');
    });

    it("answers 403 to another organization's token and to a role below admin", async () => {
      const other = await h.app.app.get(ProjectsService).createOrganization('Other');
      const foreign = await h.oauthToken(other.id, 'owner');
      expect((await create(DELETIONS, project, { distinct_ids: ['a'] }, foreign)).status).toBe(403);
      const consumer = await h.oauthToken(h.organizationId, 'consumer', [{ id: project.id, role: 'consumer' }]);
      expect((await create(DELETIONS, project, { distinct_ids: ['a'] }, consumer)).status).toBe(403);
      expect(
        (await h.call('GET', `${DELETIONS}/x?token=${project.token}`, { authorization: bearer(consumer) })).status,
      ).toBe(403);
    });

    it('answers 400 to a missing or unknown project token', async () => {
      expect(
        (await h.call('POST', DELETIONS, { authorization: bearer(owner), body: { distinct_ids: ['a'] } })).status,
      ).toBe(400);
      const unknown = await h.call('POST', `${DELETIONS}?token=nope`, {
        authorization: bearer(owner),
        body: { distinct_ids: ['a'] },
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.status).toBe('error');
    });

    it('refuses malformed bodies with 400', async () => {
      const ids = (n: number) => Array.from({ length: n }, (_, i) => `u${i}`);
      for (const body of [
        {},
        { distinct_ids: [] },
        { distinct_ids: ids(2001) },
        { distinct_ids: [1] },
        { distinct_ids: ['a'], compliance_type: 'HIPAA' },
        { distinct_ids: ['a'], disclosure_type: 'Categories' },
        { distinct_ids: ['a'], compliance_type: 'CCPA', disclosure_type: 'Everything' },
      ]) {
        const answer = await create(RETRIEVALS, project, body);
        expect({ body, status: answer.status }).toEqual({ body, status: 400 });
      }
      // Disclosure types belong to retrievals only.
      expect((await create(DELETIONS, project, { distinct_ids: ['a'], disclosure_type: 'Data' })).status).toBe(400);
    });

    it('creates from a form body (trailing slash too), and allows one create per second per project (429 with Retry-After)', async () => {
      const first = await h.call('POST', `${DELETIONS}/?token=${project.token}`, {
        authorization: bearer(owner),
        form: { distinct_ids: '["x1","x2"]', compliance_type: 'CCPA' },
      });
      expect(first.status).toBe(201);
      expect(first.body).toEqual({ status: 'ok', results: { task_id: expect.any(String) } });
      const second = await create(RETRIEVALS, project, { distinct_ids: ['x1'] });
      expect(second.status).toBe(429);
      expect(second.body.status).toBe('error');
      expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const shown = await h.call('GET', `${DELETIONS}/${first.body.results.task_id}/?token=${project.token}`, {
        authorization: bearer(owner),
      });
      expect(shown.body.results).toMatchObject({
        compliance_type: 'CCPA',
        distinct_ids: ['x1', 'x2'],
        project_id: project.id,
      });
    });

    it('answers NOT_FOUND for an unknown tracking id, and 404 to cancelling it', async () => {
      expect((await status(DELETIONS, project, 'no-such-job')).body).toEqual({
        status: 'ok',
        results: { tracking_id: 'no-such-job', status: 'NOT_FOUND' },
      });
      expect((await status(RETRIEVALS, project, 'no-such-job')).body).toEqual({
        status: 'ok',
        results: { status: 'NOT_FOUND', results: '', distinct_ids: [] },
      });
      expect(
        (await h.call('DELETE', `${DELETIONS}/no-such-job?token=${project.token}`, { authorization: bearer(owner) }))
          .status,
      ).toBe(404);
    });
  });

  describe('deletion', () => {
    it('removes every event and profile of the ids ingested before the request, keeps later events and other ids', async () => {
      const project = await h.project();
      await h.import(project, [
        event('gone-1', 'g1a'),
        event('gone-1', 'g1b', {}, 'Bought'),
        event('gone-2', 'g2a'),
        event('kept', 'k1'),
      ]);
      // The same event twice (a retried import): both copies must go.
      await h.import(project, [event('gone-1', 'g1a')]);
      await h.engage(project, 'gone-1', { plan: 'pro' });
      await h.engage(project, 'kept', { plan: 'free' });
      expect(await h.eventIds(project, ['gone-1', 'gone-2'])).toEqual(expect.arrayContaining(['g1a', 'g1b', 'g2a']));

      const created = await create(DELETIONS, project, { distinct_ids: ['gone-1', 'gone-2'] });
      expect(created.status).toBe(201);
      const id = created.body.results.task_id as string;
      expect((await status(DELETIONS, project, id)).body.results).toEqual({
        tracking_id: id,
        status: 'PENDING',
        requesting_user: expect.stringContaining('sa-owner'),
        compliance_type: 'GDPR',
        project_id: project.id,
        date_requested: expect.any(String),
        distinct_ids: ['gone-1', 'gone-2'],
      });
      // Ingested after the request: kept.
      await h.import(project, [event('gone-1', 'later')]);

      expect(await finished(DELETIONS, project, id)).toMatchObject({ status: 'SUCCESS' });
      expect(await h.eventIds(project, ['gone-1', 'gone-2'])).toEqual(['later']);
      expect(await h.eventIds(project, ['kept'])).toEqual(['k1']);
      expect(await h.profileRows(project, ['gone-1'])).toEqual({ postgres: 0, mirror: 0 });
      expect(await h.profileRows(project, ['kept'])).toEqual({ postgres: 1, mirror: expect.any(Number) });
      expect((await h.profileRows(project, ['kept'])).mirror).toBeGreaterThan(0);

      // Done is done: a cancel changes nothing.
      expect(
        (await h.call('DELETE', `${DELETIONS}/${id}?token=${project.token}`, { authorization: bearer(owner) })).status,
      ).toBe(405);
      expect((await status(DELETIONS, project, id)).body.results.status).toBe('SUCCESS');
    });

    it('cancels a deletion still PENDING (204, then REVOKED), and the worker leaves its data alone', async () => {
      const project = await h.project();
      await h.import(project, [event('stay', 's1')]);
      const created = await create(DELETIONS, project, { distinct_ids: ['stay'] });
      const id = created.body.results.task_id as string;
      const cancelled = await h.call('DELETE', `${DELETIONS}/${id}?token=${project.token}`, {
        authorization: bearer(owner),
      });
      expect(cancelled.status).toBe(204);
      expect((await status(DELETIONS, project, id)).body.results.status).toBe('REVOKED');
      // A later deletion on the same queue runs to the end, after the cancelled one was claimed.
      const other = await h.project();
      await h.import(other, [event('someone', 'o1')]);
      const next = (await create(DELETIONS, other, { distinct_ids: ['someone'] })).body.results.task_id as string;
      expect((await finished(DELETIONS, other, next)).status).toBe('SUCCESS');
      expect((await status(DELETIONS, project, id)).body.results.status).toBe('REVOKED');
      expect(await h.eventIds(project, ['stay'])).toEqual(['s1']);
      expect(
        (await h.call('DELETE', `${DELETIONS}/${id}?token=${project.token}`, { authorization: bearer(owner) })).status,
      ).toBe(204);
    });
  });

  describe('retrieval', () => {
    let project: TestProject;
    const old = nowSeconds() - 400 * 86_400;

    beforeAll(async () => {
      project = await h.project();
      await h.app.app.get(GroupKeysService).define(projectScope(project.id), 'company_id');
      await h.import(project, [
        event('alice', 'a1', { plan: 'pro', $lib: 'web', company_id: 'beta' }),
        event('alice', 'a2', { n: 2, nested: { x: [1, 'two'] } }, 'Bought'),
        event('alice', 'a-old', { mp_lib: 'python' }, 'Played', old),
        event('bob', 'b1', { $lib: 'android' }),
        event('carol', 'c1', { secret: 'not yours' }),
      ]);
      await h.engage(project, 'alice', { $email: 'alice@example.com', company_id: ['acme', 7] });
    });

    const download = async (link: string) => {
      const url = new URL(link);
      const response = await fetch(`${h.app.baseUrl}${url.pathname}${url.search}`);
      return {
        status: response.status,
        lines:
          response.status === 200
            ? gunzipSync(Buffer.from(await response.arrayBuffer()))
                .toString()
                .split('\n')
                .filter(Boolean)
                .map((l) => JSON.parse(l))
            : [],
      };
    };
    let next = Promise.resolve();
    /** One create per second per project: waits for the previous slot. */
    const retrieve = async (body: object) => {
      await next;
      const created = await create(RETRIEVALS, project, body);
      next = new Promise((resolve) => setTimeout(resolve, 1100));
      expect(created.status).toBe(201);
      const id = created.body.results.task_id as string;
      const pending = (await status(RETRIEVALS, project, id)).body.results;
      expect(pending).toEqual({
        status: 'PENDING',
        results: '',
        distinct_ids: (body as { distinct_ids: string[] }).distinct_ids,
      });
      const done = await finished(RETRIEVALS, project, id);
      expect(done.status).toBe('SUCCESS');
      return done.results as string;
    };

    it('GDPR Data: every event in the raw-export format and the profile, nothing of other ids, behind a signed link', async () => {
      const link = await retrieve({ distinct_ids: ['alice', 'bob'] });
      expect(link).toMatch(/\/downloads\/data-retrievals\/\d+\/[^?]+\.ndjson\.gz\?expires=\d+&signature=/);
      const expires = Number(new URL(link).searchParams.get('expires'));
      expect(expires).toBeGreaterThan(nowSeconds() + 7 * 86_400 - 120);
      const { status: code, lines } = await download(link);
      expect(code).toBe(200);
      const events = lines.filter((l) => 'event' in l);
      expect(events.map((e) => e.properties.$insert_id).sort()).toEqual(['a-old', 'a1', 'a2', 'b1']);
      const a2 = events.find((e) => e.properties.$insert_id === 'a2');
      expect(a2).toEqual({
        event: 'Bought',
        properties: {
          time: expect.any(Number),
          distinct_id: 'alice',
          $insert_id: 'a2',
          mp_processing_time_ms: expect.any(Number),
          n: 2,
          nested: { x: [1, 'two'] },
        },
      });
      expect(lines.filter((l) => '$properties' in l)).toEqual([
        { $distinct_id: 'alice', $properties: expect.objectContaining({ $email: 'alice@example.com' }) },
      ]);
      // Group memberships from the profile and the events; bob belongs to no group.
      expect(lines.filter((l) => '$group_memberships' in l)).toEqual([
        { $distinct_id: 'alice', $group_memberships: { company_id: ['acme', 'beta', 7] } },
      ]);
      expect(JSON.stringify(lines)).not.toContain('carol');

      const tampered = link.replace(/signature=./, (s) => `signature=${s.endsWith('A') ? 'B' : 'A'}`);
      expect((await download(tampered)).status).toBe(403);
    });

    it('CCPA: the last 365 days only; Categories and Sources disclose property names and libraries', async () => {
      const data = await download(await retrieve({ distinct_ids: ['alice'], compliance_type: 'CCPA' }));
      expect(
        data.lines
          .filter((l) => 'event' in l)
          .map((e) => e.properties.$insert_id)
          .sort(),
      ).toEqual(['a1', 'a2']);

      const categories = await download(
        await retrieve({ distinct_ids: ['alice', 'bob'], compliance_type: 'CCPA', disclosure_type: 'Categories' }),
      );
      expect(categories.lines).toEqual([
        { distinct_id: 'alice', event_properties: ['$lib', 'company_id', 'n', 'nested', 'plan'] },
        { distinct_id: 'bob', event_properties: ['$lib'] },
        { distinct_id: 'alice', profile_properties: expect.arrayContaining(['$email']) },
      ]);

      const sources = await download(
        await retrieve({ distinct_ids: ['alice', 'bob'], compliance_type: 'CCPA', disclosure_type: 'Sources' }),
      );
      expect(sources.lines).toEqual([
        { distinct_id: 'alice', sources: ['web'] },
        { distinct_id: 'bob', sources: ['android'] },
      ]);
    });
  });

  describe('identity clusters (docs/identity.md): a job covers every id an alias maps to', () => {
    let project: TestProject;
    const download = async (link: string) => {
      const url = new URL(link);
      const response = await fetch(`${h.app.baseUrl}${url.pathname}${url.search}`);
      return gunzipSync(Buffer.from(await response.arrayBuffer()))
        .toString()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
    };
    const mappedIds = async () => {
      const result = await h.app.app.get(ClickHouseClient).query({
        query: 'SELECT distinct_id FROM identity_map WHERE project_id = {p:UInt32} ORDER BY distinct_id',
        query_params: { p: project.id },
        format: 'JSONEachRow',
      });
      return (await result.json<{ distinct_id: string }>()).map((row) => row.distinct_id);
    };

    beforeAll(async () => {
      // Simplified (a new project's mode): a browsing device, then the same device signed in as user-1.
      project = await h.project();
      const time = nowSeconds() - 60;
      await h.engage(project, '$device:abc', { utm_source: 'ad' });
      await h.import(project, [
        { event: 'Viewed', properties: { time, $device_id: 'abc', $insert_id: 'd1' } },
        { event: 'Signed up', properties: { time: time + 1, $device_id: 'abc', $user_id: 'user-1', $insert_id: 'u1' } },
        event('stranger', 's1'),
      ]);
      await h.engage(project, 'stranger', { plan: 'free' });
      expect(await mappedIds()).toEqual(['$device:abc']);
    });

    it("retrieval for the device id holds the user's events and profile, each event under the id it was sent with", async () => {
      const created = await create(RETRIEVALS, project, { distinct_ids: ['$device:abc'] });
      expect(created.status).toBe(201);
      const done = await finished(RETRIEVALS, project, created.body.results.task_id as string);
      // The status echoes the request, as the real API does.
      expect(done).toMatchObject({ status: 'SUCCESS', distinct_ids: ['$device:abc'] });
      const lines = await download(done.results as string);
      const events = lines.filter((l) => 'event' in l).map((e) => [e.properties.$insert_id, e.properties.distinct_id]);
      expect(events.sort()).toEqual([
        ['d1', '$device:abc'],
        ['u1', 'user-1'],
      ]);
      // The device's profile was folded into the user's when they merged.
      expect(lines.filter((l) => '$properties' in l)).toEqual([
        { $distinct_id: 'user-1', $properties: expect.objectContaining({ utm_source: 'ad' }) },
      ]);
      expect(JSON.stringify(lines)).not.toContain('stranger');
    });

    it("deletion for the user id removes the device's events, the profile and the link; an unrelated id is untouched", async () => {
      // One create per second per project: the retrieval above took longer than that.
      const created = await create(DELETIONS, project, { distinct_ids: ['user-1'] });
      expect(created.status).toBe(201);
      expect(await finished(DELETIONS, project, created.body.results.task_id as string)).toMatchObject({
        status: 'SUCCESS',
        distinct_ids: ['user-1'],
      });
      expect(await h.eventIds(project, ['$device:abc', 'user-1'])).toEqual([]);
      expect(await h.profileRows(project, ['$device:abc', 'user-1'])).toEqual({ postgres: 0, mirror: 0 });
      expect(await mappedIds()).toEqual([]);
      expect(await h.eventIds(project, ['stranger'])).toEqual(['s1']);
      expect((await h.profileRows(project, ['stranger'])).postgres).toBe(1);
    });
  });
});
