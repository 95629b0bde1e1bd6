import { IdentityLink } from './identity-link';
import { IdentityClusters, MAX_CLUSTER_IDS } from './identity-clusters';

const merge = (a: string, b: string, timeMs: number, identified?: string): IdentityLink => ({ projectId: 1, mode: 'original', a, b, timeMs, ...(identified && { identified }) });
const device = (d: string, user: string, timeMs: number): IdentityLink => ({ projectId: 1, mode: 'simplified', a: `$device:${d}`, b: user, timeMs });

/** Every order of a list (small lists only). */
function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

const snapshot = (clusters: IdentityClusters) => Object.fromEntries(clusters.rows().map((r) => [r.distinctId, r] as const).sort());

describe('IdentityClusters', () => {
  it('original: a chain of links joins one cluster under the identified id', () => {
    const clusters = IdentityClusters.of([merge('anon-1', 'user', 10, 'user'), merge('anon-2', 'anon-1', 20), merge('anon-3', 'anon-2', 30)]);
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
    for (let i = 1; i < MAX_CLUSTER_IDS; i++) expect(clusters.apply(merge(`anon-${i}`, 'big', i, 'big')).kind).toBe('applied');
    expect(clusters.clusterOf('big')).toHaveLength(MAX_CLUSTER_IDS);
    clusters.apply(merge('x', 'y', 1, 'y'));
    expect(clusters.apply(merge('x', 'anon-7', 2))).toEqual({ kind: 'refused', reason: `identity cluster would hold ${MAX_CLUSTER_IDS + 2} ids; at most ${MAX_CLUSTER_IDS}` });
    expect(clusters.resolve('x')).toBe('y');
    expect(clusters.resolve('anon-7')).toBe('big');
    // Linking two ids already joined never counts against the limit.
    expect(clusters.apply(merge('anon-7', 'anon-8', 3)).kind).not.toBe('refused');
  });

  it('simplified: a user has any number of devices; a device belongs to the user of its earliest link', () => {
    const links = [device('d1', 'alice', 100), device('d2', 'alice', 200), device('d1', 'bob', 50), device('d3', 'bob', 10), device('d1', 'carol', 50)];
    for (const order of permutations(links)) {
      const clusters = IdentityClusters.of(order);
      expect(clusters.resolve('$device:d1')).toBe('bob');
      expect(clusters.resolve('$device:d2')).toBe('alice');
      expect(clusters.resolve('alice')).toBe('alice');
      expect(clusters.clusterOf('bob')).toEqual(['$device:d1', '$device:d3', 'bob']);
    }
    const many = IdentityClusters.of(Array.from({ length: MAX_CLUSTER_IDS + 10 }, (_, i) => device(`d${i}`, 'heavy', i)));
    expect(many.clusterOf('heavy')).toHaveLength(MAX_CLUSTER_IDS + 11);
  });
});
