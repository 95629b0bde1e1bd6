import { ClickHouseClient } from '@analytics/clickhouse';
import { IdentityLink } from '@analytics/events';
import { IdentityMetrics, IdentityRepository, IdentityWriter } from '@analytics/identity';
import { MetricsService } from '@analytics/observability';
import { eventually } from '@analytics/testing';
import { Registry } from 'prom-client';
import { ProfilesHarness, startProfilesHarness } from './profiles-harness';

/** /engage under identity merge (docs/identity.md): any id of a person updates the person's one profile. */
describe('/engage on merged ids', () => {
  let h: ProfilesHarness;

  beforeAll(async () => {
    h = await startProfilesHarness();
    const link = (a: string, b: string, identified?: string): IdentityLink => ({
      projectId: h.project.id,
      mode: 'original',
      a,
      b,
      timeMs: 1,
      ...(identified && { identified }),
    });
    const writer = new IdentityWriter(
      new IdentityRepository(h.app.app.get(ClickHouseClient)),
      new IdentityMetrics({ registry: new Registry() } as unknown as MetricsService),
    );
    await writer.apply([link('anon-1', 'user-1', 'user-1'), link('anon-2', 'anon-1')]);
  });
  afterAll(() => h?.close());

  const engage = (record: object) => h.send('engage', [{ $token: h.project.token, ...record }]);

  it('an update on any id of the cluster lands on the canonical profile; an unmerged id keeps its own', async () => {
    expect((await engage({ $distinct_id: 'anon-2', $set: { plan: 'pro' } })).status).toBe(200);
    expect((await engage({ $distinct_id: 'user-1', $set: { name: 'Ada' } })).status).toBe(200);
    expect((await engage({ $distinct_id: 'stranger', $set: { plan: 'free' } })).status).toBe(200);
    await eventually(async () => {
      const stored = await h.stored(['anon-1', 'anon-2', 'user-1', 'stranger']);
      expect([...stored.keys()].sort()).toEqual(['stranger', 'user-1']);
      expect(stored.get('user-1')).toMatchObject({ plan: 'pro', name: 'Ada' });
    });
  });

  it('the profile query reads any id of a cluster as its canonical id: one profile, under the canonical id', async () => {
    const user = { $distinct_id: 'user-1', $properties: expect.objectContaining({ plan: 'pro', name: 'Ada' }) };
    await eventually(async () => expect((await h.query({ distinct_id: 'anon-2' })).body.results).toEqual([user]));
    const many = await h.query({ distinct_ids: JSON.stringify(['anon-1', 'anon-2', 'user-1', 'stranger']) });
    expect(many.status).toBe(200);
    expect(many.body).toMatchObject({ total: 2, results: [{ $distinct_id: 'stranger' }, user] });
    // The real API's other path answers alike.
    const other = await fetch(`${h.app.baseUrl}/api/2.0/engage?project_id=${h.project.id}`, {
      method: 'POST',
      headers: { Authorization: h.project.basic, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ distinct_id: 'anon-1' }).toString(),
    });
    expect(((await other.json()) as { results: unknown[] }).results).toEqual([user]);
  });

  it('$delete with $ignore_alias keeps to the id named; without it the person goes', async () => {
    expect((await engage({ $distinct_id: 'anon-1', $delete: null, $ignore_alias: true })).status).toBe(200);
    expect([...(await h.stored(['user-1'])).keys()]).toEqual(['user-1']);
    expect((await engage({ $distinct_id: 'anon-1', $delete: null })).status).toBe(200);
    await eventually(async () => expect([...(await h.stored(['user-1', 'anon-1'])).keys()]).toEqual([]));
  });
});
