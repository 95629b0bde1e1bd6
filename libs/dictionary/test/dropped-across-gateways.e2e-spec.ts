import { ClickHouseClient } from '@analytics/clickhouse';
import { loadConfig } from '@analytics/config';
import {
  createTestEnvironment,
  eventually,
  postgresServerAvailable,
  startTestApp,
  TestApp,
  TestEnvironment,
} from '@analytics/testing';
import { DictionarySettings } from '../src/dictionary-settings';
import { apiClient, createTenant, dictionaryRoot, importEvent, TestTenant } from './dictionary-harness';

/** Two gateway replicas in one process need a Postgres server (PGlite opens a directory for one holder). */
const describeWithServer = postgresServerAvailable() ? describe : describe.skip;

/**
 * The deployed shape through the real broker: replica A runs everything (gateway, writer,
 * management), replica B is a gateway only, on the same Postgres. A schema change made through A
 * applies on A at once and on B within the cache TTL; what either drops never reaches ClickHouse.
 */
describeWithServer('dropped events and properties across gateway replicas', () => {
  let environment: TestEnvironment;
  let replicaA: TestApp;
  let replicaB: TestApp;
  let tenant: TestTenant;
  const viaA = apiClient(() => replicaA.baseUrl);
  const viaB = apiClient(() => replicaB.baseUrl);

  beforeAll(async () => {
    environment = await createTestEnvironment({ kafka: true });
    replicaA = await startTestApp(dictionaryRoot, environment.config);
    replicaB = await startTestApp(dictionaryRoot, loadConfig({ ...environment.env, SERVICES: 'ingest' }));
    tenant = await createTenant(replicaA);
  }, 120_000);
  afterAll(async () => {
    await replicaB?.close();
    await replicaA?.close();
    await environment?.dispose();
  });

  const stored = async () => {
    const result = await replicaA.app.get(ClickHouseClient).query({
      query: 'SELECT event, properties FROM events FINAL WHERE project_id = {project:UInt32}',
      query_params: { project: tenant.projectId },
      format: 'JSONEachRow',
    });
    return (await result.json<{ event: string; properties: string }>()).map((row) => ({
      event: row.event,
      ...(JSON.parse(row.properties) as Record<string, unknown>),
    }));
  };
  const imported = async (via: typeof viaA, events: object[]) => {
    const answer = await via('POST', '/import', tenant.secret, events);
    expect(answer.status).toBe(200);
    return answer.body.num_records_imported as number;
  };

  it('applies a change on the replica that made it at once and on the other within the TTL; dropped data is never stored', async () => {
    // Both replicas know the project's (empty) dictionary before the change.
    expect(
      await imported(viaA, [
        importEvent('Noise', { run: 'before-a' }),
        importEvent('Signup', { run: 'before-a', password: 'p' }),
      ]),
    ).toBe(2);
    expect(
      await imported(viaB, [
        importEvent('Noise', { run: 'before-b' }),
        importEvent('Signup', { run: 'before-b', password: 'p' }),
      ]),
    ).toBe(2);

    const change = {
      entries: [
        { entityType: 'event', name: 'Noise', schemaJson: { metadata: { 'com.mixpanel': { dropped: true } } } },
        {
          entityType: 'event',
          name: 'Signup',
          schemaJson: { properties: { password: { type: 'string', metadata: { 'com.mixpanel': { dropped: true } } } } },
        },
      ],
    };
    expect((await viaA('POST', `/api/app/projects/${tenant.projectId}/schemas`, tenant.owner, change)).status).toBe(
      200,
    );
    const answeredAt = Date.now();
    expect(await imported(viaA, [importEvent('Noise', { run: 'after-a' })])).toBe(0);

    // B may accept Noise until its copy expires; any request B starts after TTL past the change drops it.
    const ttl = replicaB.app.get(DictionarySettings).cacheTtlMs;
    const sends: { sentAt: number; imported: number }[] = [];
    await eventually(
      async () => {
        const sentAt = Date.now();
        sends.push({ sentAt, imported: await imported(viaB, [importEvent('Noise', { run: 'probe-b' })]) });
        expect(sends[sends.length - 1].imported).toBe(0);
      },
      { timeoutMs: ttl + 10_000, intervalMs: 100 },
    );
    expect(sends.filter((send) => send.imported > 0 && send.sentAt >= answeredAt + ttl)).toEqual([]);

    expect(
      await imported(viaB, [
        importEvent('Noise', { run: 'after-b' }),
        importEvent('Signup', { run: 'after-b', password: 'p', plan: 'pro' }),
        importEvent('Played', { run: 'after-b' }),
      ]),
    ).toBe(2);
    expect(
      await imported(viaA, [
        importEvent('Signup', { run: 'after-a', password: 'p' }),
        importEvent('Played', { run: 'after-a' }),
      ]),
    ).toBe(2);

    const acceptedProbes = sends.filter((send) => send.imported > 0).length;
    const expected = [
      { event: 'Noise', run: 'before-a' },
      { event: 'Noise', run: 'before-b' },
      ...Array.from({ length: acceptedProbes }, () => ({ event: 'Noise', run: 'probe-b' })),
      { event: 'Played', run: 'after-a' },
      { event: 'Played', run: 'after-b' },
      { event: 'Signup', run: 'after-a' },
      { event: 'Signup', run: 'after-b', plan: 'pro' },
      { event: 'Signup', run: 'before-a', password: 'p' },
      { event: 'Signup', run: 'before-b', password: 'p' },
    ];
    const order = (rows: { event: string; run?: unknown }[]) =>
      [...rows].sort((a, b) => `${a.event}/${String(a.run)}`.localeCompare(`${b.event}/${String(b.run)}`));
    await eventually(async () => expect(order(await stored())).toEqual(order(expected)), {
      timeoutMs: 30_000,
      intervalMs: 250,
    });

    const metricsOfB = await (await fetch(`${replicaB.baseUrl}/metrics`)).text();
    expect(metricsOfB).toMatch(
      new RegExp(`analytics_ingest_dropped_total\\{kind="event"\\} ${sends.length - acceptedProbes + 1}\\n`),
    );
    expect(metricsOfB).toMatch(/analytics_ingest_dropped_total\{kind="property"\} 1\n/);
  });
});
