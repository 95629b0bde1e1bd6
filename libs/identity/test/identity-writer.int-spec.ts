import { ClickHouseClient, ClickHouseDdl } from '@analytics/clickhouse';
import { EVENTS_TABLE, resolvedEventsSql, resolvedUserKeysSql } from '@analytics/event-store';
import { formatEpochSeconds, IdentityClusters, IdentityLink, MAX_CLUSTER_IDS } from '@analytics/events';
import { MetricsService } from '@analytics/observability';
import { chSql, projectScope, renderChSql } from '@analytics/tenancy';
import { useTestClickHouseClient } from '@analytics/testing';
import { Logger } from '@nestjs/common';
import { Registry } from 'prom-client';
import { IdentityMetrics } from '../src/identity-metrics';
import { IdentityRepository } from '../src/identity.repository';
import { IdentityWriter } from '../src/identity-writer.service';

const merge = (projectId: number, a: string, b: string, timeMs: number, identified?: string): IdentityLink => ({
  projectId,
  mode: 'original',
  a,
  b,
  timeMs,
  ...(identified && { identified }),
});
const device = (projectId: number, d: string, user: string, timeMs: number): IdentityLink => ({
  projectId,
  mode: 'simplified',
  a: `$device:${d}`,
  b: user,
  timeMs,
});

describe('identity writer on ClickHouse', () => {
  const clickhouse = useTestClickHouseClient({ migrate: true });
  let client: ClickHouseClient;
  let repository: IdentityRepository;
  let writer: IdentityWriter;

  beforeAll(async () => {
    client = clickhouse.client;
    repository = new IdentityRepository(client);
    writer = new IdentityWriter(
      repository,
      new IdentityMetrics({ registry: new Registry() } as unknown as MetricsService),
    );
  });

  /** Each stored event's id as the readers see it. */
  async function resolvedIds(projectId: number): Promise<Record<string, string>> {
    const { sql, params } = renderChSql(
      chSql`SELECT original_distinct_id, distinct_id FROM ${resolvedEventsSql(projectScope(projectId))} ORDER BY original_distinct_id`,
    );
    const result = await client.query({ query: sql, query_params: params, format: 'JSONEachRow' });
    const rows = await result.json<{ original_distinct_id: string; distinct_id: string }>();
    return Object.fromEntries(rows.map((r) => [r.original_distinct_id, r.distinct_id]));
  }

  async function storeEvents(projectId: number, ids: string[]): Promise<void> {
    const values = ids.map((id, i) => ({
      project_id: projectId,
      event: 'Viewed',
      time: formatEpochSeconds(1_700_000_000_000 + i),
      distinct_id: id,
      insert_id: `i${i}`,
      properties: '{}',
      processed_at: formatEpochSeconds(1_700_000_000_000),
    }));
    await client.insert({ table: EVENTS_TABLE, values, format: 'JSONEachRow' });
  }

  it('joins a chain sent in several batches, out of order, exactly as the rules do in memory; other projects see nothing', async () => {
    const links = [
      merge(1, 'anon-3', 'anon-2', 30),
      merge(1, 'anon-1', 'user', 10, 'user'),
      merge(1, 'anon-2', 'anon-1', 20),
      merge(1, 'other', 'u2', 5, 'u2'),
    ];
    await writer.apply(links.slice(0, 1));
    await writer.apply(links.slice(1, 2));
    await writer.apply(links.slice(2));
    const expected = IdentityClusters.of([...links].reverse());
    await storeEvents(1, ['anon-1', 'anon-2', 'anon-3', 'user', 'stranger', 'other']);
    await storeEvents(2, ['anon-1']);
    expect(await resolvedIds(1)).toEqual({
      'anon-1': 'user',
      'anon-2': 'user',
      'anon-3': 'user',
      user: 'user',
      stranger: 'stranger',
      other: 'u2',
    });
    for (const id of ['anon-1', 'anon-3', 'user', 'stranger'])
      expect(await repository.clustersOf(projectScope(1), [id])).toEqual(expected.clusterOf(id));
    expect(await resolvedIds(2)).toEqual({ 'anon-1': 'anon-1' });
    expect(await repository.clustersOf(projectScope(2), ['anon-1'])).toEqual(['anon-1']);
  });

  it('concurrent applies (two requests at once without a broker) lose no merge', async () => {
    const links = Array.from({ length: 20 }, (_, i) => merge(5, `c${i}`, `c${i + 1}`, i));
    await Promise.all(links.map((link) => writer.apply([link])));
    expect(await repository.clustersOf(projectScope(5), ['c0'])).toEqual(IdentityClusters.of(links).clusterOf('c0'));
    expect(await repository.clustersOf(projectScope(5), ['c0'])).toHaveLength(21);
  });

  it('a redelivered batch writes nothing new', async () => {
    const count = async () =>
      Number(
        (
          await (
            await client.query({
              query: 'SELECT count() AS n FROM identity_map WHERE project_id = 1',
              format: 'JSONEachRow',
            })
          ).json<{ n: string }>()
        )[0].n,
      );
    const before = await count();
    await writer.apply([merge(1, 'anon-2', 'anon-1', 20), merge(1, 'anon-1', 'user', 10, 'user')]);
    expect(await count()).toBe(before);
  });

  it(`refuses a link past ${MAX_CLUSTER_IDS} ids with the reason, and applies the others of its batch`, async () => {
    const links = Array.from({ length: MAX_CLUSTER_IDS - 1 }, (_, i) => merge(3, `a${i}`, 'big', i, 'big'));
    expect(await writer.apply(links)).toEqual([]);
    expect(await repository.clustersOf(projectScope(3), ['big'])).toHaveLength(MAX_CLUSTER_IDS);
    const refused = await writer.apply([merge(3, 'x', 'y', 1), merge(3, 'x', 'a7', 2), merge(3, 'z', 'y', 3)]);
    expect(refused).toEqual([
      {
        position: 1,
        rule: 'cluster_limit',
        reason: `identity cluster would hold ${MAX_CLUSTER_IDS + 2} ids; at most ${MAX_CLUSTER_IDS}`,
      },
    ]);
    expect(await repository.clustersOf(projectScope(3), ['x'])).toEqual(['x', 'y', 'z']);
  });

  it('simplified: a device seen with a second user later stays with the first; an earlier link arriving late takes it', async () => {
    await writer.apply([device(4, 'd1', 'alice', 100)]);
    await writer.apply([device(4, 'd1', 'bob', 200)]);
    await storeEvents(4, ['$device:d1', 'alice', 'bob']);
    expect(await resolvedIds(4)).toEqual({ '$device:d1': 'alice', alice: 'alice', bob: 'bob' });
    await writer.apply([device(4, 'd1', 'carol', 50)]);
    expect((await resolvedIds(4))['$device:d1']).toBe('carol');
    expect(await repository.clustersOf(projectScope(4), ['carol'])).toEqual(['$device:d1', 'carol']);
  });

  /** The stored ids grouped as one person each, by the key unique counts count (identity_lookup) and by the join. */
  async function persons(projectId: number): Promise<{ byLookup: string[][]; byJoin: string[][] }> {
    const { sql, params } = renderChSql(
      chSql`SELECT distinct_id, toString(person_key) AS user_key FROM ${resolvedUserKeysSql(projectScope(projectId))}`,
    );
    const result = await client.query({ query: sql, query_params: params, format: 'JSONEachRow' });
    const group = (pairs: [string, string][]) => {
      const groups = new Map<string, string[]>();
      for (const [id, person] of pairs) groups.set(person, [...(groups.get(person) ?? []), id]);
      return [...groups.values()].map((ids) => ids.sort()).sort((a, b) => a[0].localeCompare(b[0]));
    };
    const byLookup = group(
      (await result.json<{ distinct_id: string; user_key: string }>()).map((r) => [r.distinct_id, r.user_key]),
    );
    return { byLookup, byJoin: group(Object.entries(await resolvedIds(projectId))) };
  }

  it('unique counts see the same persons through identity_lookup as through the join: re-pointed devices, a new canonical id, deleted ids', async () => {
    await storeEvents(6, ['$device:d1', 'alice', 'bob', 'x1', 'x2', 'boss', 'stranger']);
    await writer.apply([device(6, 'd1', 'alice', 100), merge(6, 'x1', 'x2', 10)]);
    await writer.apply([device(6, 'd1', 'bob', 50), merge(6, 'x2', 'boss', 5, 'boss')]);
    const { byLookup, byJoin } = await persons(6);
    expect(byLookup).toEqual([['$device:d1', 'bob'], ['alice'], ['boss', 'x1', 'x2'], ['stranger']]);
    expect(byLookup).toEqual(byJoin);
    // Another project's equal ids are not merged.
    await storeEvents(7, ['$device:d1', 'bob']);
    expect((await persons(7)).byLookup).toEqual([['$device:d1'], ['bob']]);
    // Its files rewritten as one, the lookup holds the same.
    await repository.rewriteLookup();
    expect((await persons(6)).byLookup).toEqual(byLookup);
    // Compliance deletion of a cluster: its ids leave the lookup.
    await repository.forget(projectScope(6), ['$device:d1', 'bob']);
    expect(await repository.lookupRows(projectScope(6), ['$device:d1', 'bob', 'x1'])).toBe(1);
    expect((await persons(6)).byLookup).toEqual([
      ['$device:d1'],
      ['alice'],
      ['bob'],
      ['boss', 'x1', 'x2'],
      ['stranger'],
    ]);
  });

  it('a batch that changes nothing in identity_map still rewrites the lookup of its clusters (an interrupted attempt wrote another outcome there)', async () => {
    await storeEvents(8, ['x', 'a', 'b']);
    await writer.apply([merge(8, 'x', 'a', 10, 'a')]);
    // What an attempt stopped after its lookup insert may leave: ids pointed at a canonical id identity_map never got.
    await repository.write(projectScope(8), [], 0, [
      { distinctId: 'x', personId: 'b', identifiedMs: 0, linkedMs: 0 },
      { distinctId: 'a', personId: 'b', identifiedMs: 0, linkedMs: 0 },
    ]);
    expect((await persons(8)).byLookup).not.toEqual((await persons(8)).byJoin);
    // The same link again: identity_map has nothing to change, the lookup ends as identity_map says.
    await writer.apply([merge(8, 'x', 'a', 10, 'a')]);
    const { byLookup, byJoin } = await persons(8);
    expect(byLookup).toEqual([['a', 'x'], ['b']]);
    expect(byLookup).toEqual(byJoin);
  });

  it('on a cluster, whose servers it does not reach, the writer leaves identity_lookup alone', async () => {
    const onCluster = new IdentityRepository(client, new ClickHouseDdl('analytics'));
    await new IdentityWriter(
      onCluster,
      new IdentityMetrics({ registry: new Registry() } as unknown as MetricsService),
    ).apply([merge(8, 'c-anon', 'c-user', 1, 'c-user')]);
    expect(await repository.clustersOf(projectScope(8), ['c-anon'])).toEqual(['c-anon', 'c-user']);
    expect(await repository.lookupRows(projectScope(8), ['c-anon', 'c-user'])).toBe(0);
  });

  it('counts each refusal by its rule and logs it, never applies it: two people through one device, in both modes', async () => {
    const registry = new Registry();
    const counted = new IdentityWriter(repository, new IdentityMetrics({ registry } as unknown as MetricsService));
    const debug = jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
    const device = '$device:0b7e5c8a-3f1d-4c2b-9a6e-1d2c3b4a5f60';
    const identify = (anon: string, user: string, timeMs: number): IdentityLink => ({
      projectId: 9,
      mode: 'original',
      kind: 'identify',
      a: anon,
      b: user,
      identified: user,
      timeMs,
    });
    try {
      const refused = await counted.apply([
        identify(device, 'alice', 10),
        identify('alice', 'bob', 20),
        identify(device, 'bob', 30),
        { projectId: 10, mode: 'simplified', a: '$device:d', b: 'carol', timeMs: 1 },
      ]);
      expect(refused.map((r) => [r.position, r.rule])).toEqual([
        [1, 'anon_not_uuid'],
        [2, 'anon_identified'],
      ]);
      await counted.apply([{ projectId: 10, mode: 'simplified', a: '$device:d', b: 'dave', timeMs: 2 }]);
      expect(await repository.clustersOf(projectScope(9), ['bob'])).toEqual(['bob']);
      expect(await repository.clustersOf(projectScope(9), ['alice'])).toEqual([device, 'alice'].sort());
      expect(await repository.clustersOf(projectScope(10), ['dave'])).toEqual(['dave']);
      const values = (await registry.getSingleMetric('analytics_identity_links_refused_total')!.get()).values;
      expect(Object.fromEntries(values.map((v) => [v.labels.reason, v.value]))).toEqual({
        cluster_limit: 0,
        anon_not_uuid: 1,
        anon_identified: 1,
        alias_merged: 0,
        device_owned: 1,
      });
      const logged = debug.mock.calls.map(([message]) => String(message));
      expect(logged).toEqual([
        'project 9: identify link "alice" – "bob" refused: $identify: $anon_id "alice" is not a UUID v4',
        `project 9: identify link "${device}" – "bob" refused: $identify: $anon_id "${device}" is already merged with the identified id "alice"`,
        'project 10: simplified link "$device:d" – "dave" refused: device "$device:d" belongs to user "carol" by an earlier event; not linked to "dave"',
      ]);
    } finally {
      debug.mockRestore();
    }
  });
});
