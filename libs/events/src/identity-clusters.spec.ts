import { IdentityLink } from './identity-link';
import { IdentityClusters } from './identity-clusters';
import { isAnonymousId, MAX_CLUSTER_IDS } from './identity-rules';

/** A link without its event: applied as `$merge` (any two ids), as links sent before the rules. */
const merge = (a: string, b: string, timeMs: number, identified?: string): IdentityLink => ({
  projectId: 1,
  mode: 'original',
  a,
  b,
  timeMs,
  ...(identified && { identified }),
});
const identify = (anon: string, user: string, timeMs: number): IdentityLink => ({
  projectId: 1,
  mode: 'original',
  kind: 'identify',
  a: anon,
  b: user,
  identified: user,
  timeMs,
});
const alias = (distinctId: string, aliasId: string, timeMs: number): IdentityLink => ({
  projectId: 1,
  mode: 'original',
  kind: 'alias',
  a: distinctId,
  b: aliasId,
  identified: aliasId,
  timeMs,
});
const mergeEvent = (a: string, b: string, timeMs: number): IdentityLink => ({
  projectId: 1,
  mode: 'original',
  kind: 'merge',
  a,
  b,
  timeMs,
});
const device = (d: string, user: string, timeMs: number): IdentityLink => ({
  projectId: 1,
  mode: 'simplified',
  a: `$device:${d}`,
  b: user,
  timeMs,
});

/** Every order of a list (small lists only). */
function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

const snapshot = (clusters: IdentityClusters) =>
  Object.fromEntries(
    clusters
      .rows()
      .map((r) => [r.distinctId, r] as const)
      .sort(),
  );

describe('IdentityClusters', () => {
  it('original: a chain of links joins one cluster under the identified id', () => {
    const clusters = IdentityClusters.of([
      merge('anon-1', 'user', 10, 'user'),
      merge('anon-2', 'anon-1', 20),
      merge('anon-3', 'anon-2', 30),
    ]);
    for (const id of ['anon-1', 'anon-2', 'anon-3', 'user']) expect(clusters.resolve(id)).toBe('user');
    expect(clusters.clusterOf('anon-3')).toEqual(['anon-1', 'anon-2', 'anon-3', 'user']);
    expect(clusters.resolve('stranger')).toBe('stranger');
    expect(clusters.clusterOf('stranger')).toEqual(['stranger']);
  });

  it('original: every arrival order gives the same mapping (the canonical id ranks by event time, not arrival)', () => {
    const links = [merge('a', 'u1', 50, 'u1'), merge('b', 'a', 10), merge('c', 'u2', 40, 'u2'), merge('c', 'b', 60)];
    const expected = snapshot(IdentityClusters.of(links));
    // u2 was identified earlier (40) than u1 (50): it is the canonical id of the joined cluster.
    expect(new Set(Object.values(expected).map((r) => r.personId))).toEqual(new Set(['u2']));
    for (const order of permutations(links)) expect(snapshot(IdentityClusters.of(order))).toEqual(expected);
  });

  it('original: applying a link again changes nothing (a redelivered batch)', () => {
    const clusters = new IdentityClusters(IdentityClusters.of([merge('a', 'u', 5, 'u'), merge('b', 'a', 6)]).rows());
    expect(clusters.apply(merge('b', 'a', 6))).toEqual({ kind: 'unchanged' });
    expect(clusters.apply(merge('a', 'u', 5, 'u'))).toEqual({ kind: 'unchanged' });
    expect(clusters.changed()).toEqual([]);
    expect(clusters.apply(merge('c', 'b', 7))).toEqual({ kind: 'applied' });
    expect(clusters.changed().map((r) => r.distinctId)).toEqual(['c']);
  });

  it(`original: refuses a union past ${MAX_CLUSTER_IDS} ids, and both clusters stay as they were`, () => {
    const clusters = new IdentityClusters();
    for (let i = 1; i < MAX_CLUSTER_IDS; i++)
      expect(clusters.apply(merge(`anon-${i}`, 'big', i, 'big')).kind).toBe('applied');
    expect(clusters.clusterOf('big')).toHaveLength(MAX_CLUSTER_IDS);
    clusters.apply(merge('x', 'y', 1, 'y'));
    expect(clusters.apply(merge('x', 'anon-7', 2))).toEqual({
      kind: 'refused',
      rule: 'cluster_limit',
      reason: `identity cluster would hold ${MAX_CLUSTER_IDS + 2} ids; at most ${MAX_CLUSTER_IDS}`,
    });
    expect(clusters.resolve('x')).toBe('y');
    expect(clusters.resolve('anon-7')).toBe('big');
    // Linking two ids already joined never counts against the limit.
    expect(clusters.apply(merge('anon-7', 'anon-8', 3)).kind).not.toBe('refused');
  });

  it('simplified: a user has any number of devices; a device belongs to the user of its earliest link', () => {
    const links = [
      device('d1', 'alice', 100),
      device('d2', 'alice', 200),
      device('d1', 'bob', 50),
      device('d3', 'bob', 10),
      device('d1', 'carol', 50),
    ];
    for (const order of permutations(links)) {
      const clusters = IdentityClusters.of(order);
      expect(clusters.resolve('$device:d1')).toBe('bob');
      expect(clusters.resolve('$device:d2')).toBe('alice');
      expect(clusters.resolve('alice')).toBe('alice');
      expect(clusters.clusterOf('bob')).toEqual(['$device:d1', '$device:d3', 'bob']);
    }
    const many = IdentityClusters.of(
      Array.from({ length: MAX_CLUSTER_IDS + 10 }, (_, i) => device(`d${i}`, 'heavy', i)),
    );
    expect(many.clusterOf('heavy')).toHaveLength(MAX_CLUSTER_IDS + 11);
  });
});

/** Anonymous ids as the SDKs make them (UUID v4). */
const D1 = '0b7e5c8a-3f1d-4c2b-9a6e-1d2c3b4a5f60';
const D2 = '6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b';

describe('IdentityClusters: the merge rules (original)', () => {
  it('$identify merges only an $anon_id in UUID v4 form (also as the browser SDK sends it, behind $device:)', () => {
    expect([D1, D1.toUpperCase(), `$device:${D1}`].map(isAnonymousId)).toEqual([true, true, true]);
    // v1 and nil UUIDs, plain names, another prefix: not anonymous ids.
    expect(
      [
        '6f1e2d3c-4b5a-1978-8a6b-5c4d3e2f1a0b',
        '00000000-0000-0000-0000-000000000000',
        'alice',
        `$user:${D1}`,
        `${D1}x`,
      ].map(isAnonymousId),
    ).toEqual([false, false, false, false, false]);

    const clusters = new IdentityClusters();
    expect(clusters.apply(identify(`$device:${D1}`, 'carol', 10))).toEqual({ kind: 'applied' });
    expect(clusters.resolve(`$device:${D1}`)).toBe('carol');
  });

  it('$identify of two identified people (anon id "alice", identified "bob") merges nothing', () => {
    const clusters = new IdentityClusters();
    expect(clusters.apply(identify('alice', 'bob', 10))).toEqual({
      kind: 'refused',
      rule: 'anon_not_uuid',
      reason: '$identify: $anon_id "alice" is not a UUID v4',
    });
    expect([clusters.resolve('alice'), clusters.resolve('bob')]).toEqual(['alice', 'bob']);
    expect(clusters.changed()).toEqual([]);
  });

  it("a shared device: $identify to alice, then to bob → the second is refused, the device stays alice's", () => {
    const clusters = new IdentityClusters();
    expect(clusters.apply(identify(D1, 'alice', 10)).kind).toBe('applied');
    expect(clusters.apply(identify(D1, 'bob', 20))).toEqual({
      kind: 'refused',
      rule: 'anon_identified',
      reason: `$identify: $anon_id "${D1}" is already merged with the identified id "alice"`,
    });
    expect(clusters.clusterOf('alice')).toEqual([D1, 'alice'].sort());
    expect(clusters.clusterOf('bob')).toEqual(['bob']);
    // The same $identify again (a retry, a redelivered batch) is no refusal: nothing changes.
    expect(clusters.apply(identify(D1, 'alice', 10))).toEqual({ kind: 'unchanged' });
  });

  it('$identify: one person on several devices; anonymous ids merged among themselves may still be identified', () => {
    const clusters = IdentityClusters.of([identify(D1, 'u1', 10), identify(D2, 'u1', 20)]);
    expect(clusters.clusterOf('u1')).toEqual([D1, D2, 'u1'].sort());
    const anonymous = new IdentityClusters();
    expect(anonymous.apply(mergeEvent(D1, D2, 5)).kind).toBe('applied');
    expect(anonymous.apply(identify(D2, 'u2', 30)).kind).toBe('applied');
    expect(anonymous.clusterOf(D1)).toEqual([D1, D2, 'u2'].sort());
  });

  it('$create_alias adds an alias not yet merged, to any id (an identified one too); an alias already merged is refused', () => {
    const clusters = IdentityClusters.of([identify(D1, 'user-1', 10)]);
    expect(clusters.apply(alias('user-1', 'alt-1', 20)).kind).toBe('applied');
    expect(clusters.clusterOf(D1)).toEqual([D1, 'alt-1', 'user-1'].sort());
    expect(clusters.apply(alias('user-1', 'alt-1', 20))).toEqual({ kind: 'unchanged' });
    // alt-1 maps to user-1: it cannot become another person's alias too.
    expect(clusters.apply(alias('user-2', 'alt-1', 30))).toEqual({
      kind: 'refused',
      rule: 'alias_merged',
      reason: '$create_alias: alias "alt-1" is already merged with another id',
    });
    expect(clusters.clusterOf('user-2')).toEqual(['user-2']);
    // The server SDKs' alias(distinct_id, alias) of a plain anonymous name: no UUID needed.
    expect(clusters.apply(alias('anon-7', 'customer-7', 40)).kind).toBe('applied');
  });

  it('$merge joins any two ids, identified people included, up to the 500-id limit', () => {
    const clusters = IdentityClusters.of([identify(D1, 'alice', 10), identify(D2, 'bob', 20)]);
    expect(clusters.apply(mergeEvent('alice', 'bob', 30)).kind).toBe('applied');
    expect(clusters.clusterOf('alice')).toEqual([D1, D2, 'alice', 'bob'].sort());
  });

  it('judges each link by the state it meets: the first of two conflicting links wins, however the links are cut into batches', () => {
    const links = [
      identify(D1, 'alice', 50),
      identify(D1, 'bob', 10),
      identify(D2, 'bob', 20),
      alias('bob', 'b-alias', 30),
      alias('alice', 'b-alias', 40),
      mergeEvent(D2, 'carol', 60),
    ];
    const once = IdentityClusters.of(links);
    expect(once.clusterOf('alice')).toEqual([D1, 'alice'].sort());
    expect(once.clusterOf('bob')).toEqual([D2, 'b-alias', 'bob', 'carol'].sort());
    for (let cut = 1; cut < links.length; cut++) {
      // A batch reads the rows the previous one wrote.
      const first = IdentityClusters.of(links.slice(0, cut));
      const second = new IdentityClusters(first.rows());
      const refused = links.slice(cut).map((link) => second.apply(link).kind === 'refused');
      expect(snapshot(second)).toEqual(snapshot(once));
      expect(refused).toEqual(links.slice(cut).map((link) => [links[1], links[4]].includes(link)));
    }
  });
});

describe('IdentityClusters: the merge rules (simplified)', () => {
  it('a device seen with a second user stays with the first and the link is refused; an earlier one arriving late takes it and displaces the other', () => {
    const clusters = new IdentityClusters();
    expect(clusters.apply(device('d1', 'alice', 100))).toEqual({ kind: 'applied' });
    expect(clusters.apply(device('d1', 'bob', 200))).toEqual({
      kind: 'refused',
      rule: 'device_owned',
      reason: 'device "$device:d1" belongs to user "alice" by an earlier event; not linked to "bob"',
    });
    expect(clusters.apply(device('d1', 'alice', 150))).toEqual({ kind: 'unchanged' });
    expect(clusters.apply(device('d1', 'carol', 50))).toEqual({
      kind: 'applied',
      displaced: {
        kind: 'refused',
        rule: 'device_owned',
        reason: 'device "$device:d1" belongs to user "carol" by an earlier event; not linked to "alice"',
      },
    });
  });

  it('two user ids never merge: users share no row, a device holds one user', () => {
    const clusters = IdentityClusters.of([
      device('d1', 'alice', 1),
      device('d2', 'bob', 2),
      device('d1', 'bob', 3),
      device('d2', 'alice', 4),
    ]);
    expect(clusters.clusterOf('alice')).toEqual(['$device:d1', 'alice']);
    expect(clusters.clusterOf('bob')).toEqual(['$device:d2', 'bob']);
    expect(
      clusters
        .rows()
        .map((r) => r.distinctId)
        .sort(),
    ).toEqual(['$device:d1', '$device:d2']);
  });
});
