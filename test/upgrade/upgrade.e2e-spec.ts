import { POSTGRES_MIGRATIONS } from '@analytics/postgres';
import { CLICKHOUSE_MIGRATIONS } from '@analytics/runtime';
import { eventually, ServiceProcess, spawnService, temporaryDirectory } from '@analytics/testing';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  apiClient,
  ledgers,
  recordPostgresVersion,
  seededRelease,
  startStandalone,
  unpackRelease,
} from './previous-release';

const RELEASE = 'v0.1.0';

/**
 * A data directory written by the previous release's standalone (test/fixtures/upgrade, built by
 * `npm run upgrade:fixture`) opens under the current code: migrations apply at start, and every
 * credential, event, identity link, profile, report, annotation, dictionary entry and file is still there.
 */
describe(`upgrading a standalone data directory from ${RELEASE}`, () => {
  jest.setTimeout(240_000);
  const seeded = seededRelease(RELEASE);
  const { projectId, organizationId } = seeded.credentials;
  const directory = temporaryDirectory('upgrade');
  let dataDir: string;
  let service: ServiceProcess | undefined;
  let api: ReturnType<typeof apiClient>;
  let secret: string;
  let owner: string;

  beforeAll(async () => {
    dataDir = unpackRelease(RELEASE, directory.path);
    const started = await startStandalone(dataDir);
    service = started.service;
    api = apiClient(started.base);
    secret = api.basic(seeded.credentials.projectSecret);
    owner = api.basic(seeded.credentials.ownerUsername, seeded.credentials.ownerSecret);
  });
  afterAll(async () => {
    await service?.stop(60_000);
    directory.remove();
  });

  const get = async (path: string, auth = secret) => {
    const answer = await api.call('GET', path, auth);
    expect({ path, status: answer.status }).toEqual({ path, status: 200 });
    return answer;
  };
  const range = new URLSearchParams(seeded.range).toString();
  const monthly = async (event: string, type: 'general' | 'unique') => {
    const query = new URLSearchParams({ event, type, unit: 'month', ...seeded.range });
    const values = (await get(`/api/query/segmentation?${query}`)).json().data.values[event] ?? {};
    return Object.values(values as Record<string, number>).reduce((a, b) => a + b, 0);
  };

  it('accepts the credentials it was created with, and no others', async () => {
    const me = (await get('/api/app/me', owner)).json();
    expect(JSON.stringify(me)).toContain(seeded.credentials.ownerUsername);
    const project = (await get(`/api/app/projects/${projectId}`)).json().results;
    expect(project).toMatchObject({ token: seeded.credentials.projectToken, identity_merge: seeded.identity.mode });
    const wrong = api.basic(seeded.credentials.ownerUsername, `${seeded.credentials.ownerSecret}x`);
    expect((await api.call('GET', '/api/app/me', wrong)).status).toBe(401);
    expect((await api.call('GET', `/api/app/projects/${projectId}`, api.basic('not-the-secret-0000'))).status).toBe(
      401,
    );
  });

  it('exports every event, and counts each event name as before', async () => {
    const lines = (await get(`/api/2.0/export?${range}`)).text.split('\n').filter(Boolean);
    const events = lines.map((line) => JSON.parse(line) as { event: string; properties: Record<string, unknown> });
    expect(events).toHaveLength(seeded.events.total);
    const byName: Record<string, number> = {};
    for (const { event } of events) byName[event] = (byName[event] ?? 0) + 1;
    expect(byName).toEqual(seeded.events.byName);
    for (const name of ['Viewed page', 'Purchased']) expect(await monthly(name, 'general')).toBe(byName[name]);
    // The property the dictionary dropped at ingestion was never stored.
    expect(lines.join('\n')).not.toContain(seeded.droppedProperty.property);
  });

  /** The id each event was sent with → the person's canonical id the export shows (identity merge). */
  const canonicalIds = async () => {
    const canonical = new Map<string, string>();
    for (const line of (await get(`/api/2.0/export?${range}`)).text.split('\n').filter(Boolean)) {
      const { properties } = JSON.parse(line) as { properties: Record<string, string> };
      canonical.set(properties.$distinct_id_before_identity ?? properties.distinct_id, properties.distinct_id);
    }
    return canonical;
  };

  it('still resolves merged identities: the anonymous device and the alias count as their people', async () => {
    const canonical = await canonicalIds();
    for (const [from, to] of Object.entries(seeded.identity.merged)) {
      expect({ from, canonical: canonical.get(from) }).toEqual({ from, canonical: canonical.get(to) });
    }
    expect(new Set(canonical.values()).size).toBe(seeded.identity.people);
    expect(await monthly('Viewed page', 'unique')).toBe(seeded.identity.people);
  });

  it('keeps the profiles', async () => {
    const response = await api.call('POST', '/api/query/engage', secret, { form: {} });
    expect({ status: response.status }).toEqual({ status: 200 });
    const answer = response.json();
    expect(answer.total).toBe(Object.keys(seeded.profiles).length);
    const stored = new Map(
      (answer.results as { $distinct_id: string; $properties: Record<string, unknown> }[]).map((p) => [
        p.$distinct_id,
        p.$properties,
      ]),
    );
    const canonical = await canonicalIds();
    for (const [id, properties] of Object.entries(seeded.profiles)) {
      expect({ id, properties: stored.get(canonical.get(id) ?? id) }).toMatchObject({ id, properties });
    }
  });

  it('keeps the saved report, which answers as it did', async () => {
    const report = (await get(`/api/app/projects/${projectId}/bookmarks/${seeded.savedReport.id}`)).json().results;
    expect(report).toMatchObject({ name: seeded.savedReport.name, params: seeded.savedReport.params });
    const insights = (await get(`/api/query/insights?bookmark_id=${seeded.savedReport.id}`)).json();
    expect(insights.series).toEqual(seeded.savedReport.series);
  });

  it('keeps the annotation with its tag, and the data dictionary', async () => {
    const annotation = (await get(`/api/app/projects/${projectId}/annotations/${seeded.annotation.id}`)).json();
    expect(annotation.results).toMatchObject({
      date: seeded.annotation.date,
      description: seeded.annotation.description,
      tags: seeded.annotation.tags,
    });
    const schemas = (await get(`/api/app/projects/${projectId}/schemas`)).json().results;
    expect(schemas).toEqual(expect.arrayContaining(seeded.schemas));
  });

  it("keeps a finished retrieval's record and the file it wrote", async () => {
    const token = (
      await api.call('POST', `/api/app/organizations/${organizationId}/oauth-tokens`, owner, { json: {} })
    ).json();
    const bearer = `Bearer ${token.results?.token ?? token.token}`;
    const path = `/api/app/data-retrievals/v3.0/${seeded.retrieval.trackingId}?token=${seeded.credentials.projectToken}`;
    const status = (await get(path, bearer)).json().results;
    expect(status).toMatchObject({ status: 'SUCCESS', distinct_ids: [seeded.retrieval.distinctId] });
    // The link was signed for 7 days when the fixture was built; the file it names must still be there.
    const key = decodeURIComponent(new URL(status.results as string).pathname.replace(/^\/downloads\//, ''));
    const file = join(dataDir, 'objects', key);
    expect(existsSync(file)).toBe(true);
    const content = gunzipSync(readFileSync(file)).toString();
    expect(content.split(seeded.retrieval.distinctId).length - 1).toBeGreaterThanOrEqual(seeded.events.ofRetrieved);
  });

  it('keeps the paused pipeline, its destination and its state', async () => {
    const jobs = (await get(`/api/2.0/nessie/pipeline/jobs?project_id=${projectId}`)).json();
    expect(jobs[String(projectId)]).toEqual([expect.objectContaining(seeded.pipeline)]);
    const status = (
      await get(`/api/2.0/nessie/pipeline/status?name=${seeded.pipeline.name}&project_id=${projectId}`)
    ).json();
    expect(status).toMatchObject({ name: seeded.pipeline.name, state: seeded.pipeline.state });
  });

  it('ingests with the project token, still applying the dictionary', async () => {
    const event = {
      event: seeded.droppedProperty.event,
      properties: {
        token: seeded.credentials.projectToken,
        distinct_id: 'after-upgrade',
        time: Math.floor(Date.now() / 1000),
        $insert_id: 'after-upgrade-1',
        [seeded.droppedProperty.property]: 'kept out',
        page: '/after',
      },
    };
    const tracked = await api.call('POST', '/track?verbose=1', undefined, { form: { data: JSON.stringify(event) } });
    expect(tracked.json()).toMatchObject({ status: 1 });
    const today = new Date(event.properties.time * 1000).toISOString().slice(0, 10);
    const line = await eventually(async () => {
      const text = (await get(`/api/2.0/export?from_date=${today}&to_date=${today}`)).text;
      expect(text).toContain('after-upgrade');
      return text;
    });
    expect(JSON.parse(line.trim()).properties).toMatchObject({ page: '/after' });
    expect(line).not.toContain(seeded.droppedProperty.property);
  });

  it('records every current migration in both ledgers, and refuses a ledger from a newer release', async () => {
    expect(await service?.stop(60_000)).toBe(0);
    service = undefined;
    expect(await ledgers(dataDir)).toEqual({
      postgres: POSTGRES_MIGRATIONS.map((m) => m.version),
      clickhouse: CLICKHOUSE_MIGRATIONS.map((m) => m.version),
    });

    const future = POSTGRES_MIGRATIONS.at(-1)!.version + 1;
    await recordPostgresVersion(dataDir, future);
    const refused = spawnService('standalone', { DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn' });
    try {
      expect(await refused.exited).toBe(1);
    } finally {
      await refused.stop();
    }
    expect(refused.output()).toContain(
      `Analytics platform could not start: Postgres schema holds migration ${future}, which this release does not know`,
    );
  });
});
