import { applyProfileUpdate, ProfileState } from './apply-profile-update';
import { ProfileOperation, ProfileUpdate } from './profile-update';

const T0 = Date.UTC(2024, 0, 2, 3, 4, 5);
const update = (operation: ProfileOperation, timing: Partial<ProfileUpdate> = {}): ProfileUpdate =>
  ({
    projectId: 1,
    groupKey: '',
    profileId: 'u',
    timeMs: T0,
    timed: false,
    ignoreTime: false,
    ...operation,
    ...timing,
  }) as ProfileUpdate;

/** Applies updates in order from no profile; throws on a failed one. */
function run(...updates: ProfileUpdate[]): ProfileState | undefined {
  let state: ProfileState | undefined;
  for (const u of updates) {
    const outcome = applyProfileUpdate(state, u);
    if (!outcome.ok) throw new Error(outcome.message);
    state = outcome.state;
  }
  return state;
}
const props = (...updates: ProfileUpdate[]) => run(...updates)?.properties;
const set = (properties: Record<string, unknown>, timing?: Partial<ProfileUpdate>) =>
  update({ op: '$set', properties } as ProfileOperation, timing);
const failure = (state: ProfileState | undefined, u: ProfileUpdate) => {
  const outcome = applyProfileUpdate(state, u);
  return outcome.ok ? undefined : outcome.message;
};

describe('applyProfileUpdate', () => {
  it('$set creates the profile with $created and $last_seen at the update time, and replaces values', () => {
    expect(props(set({ a: 1, b: 'x' }), set({ a: [2] }))).toEqual({
      $created: '2024-01-02T03:04:05',
      $last_seen: '2024-01-02T03:04:05',
      a: [2],
      b: 'x',
    });
  });

  it('$ignore_time leaves $last_seen alone; $set_once, $union, $remove and $unset never move it', () => {
    expect(props(set({ a: 1 }, { ignoreTime: true }))).toEqual({ $created: '2024-01-02T03:04:05', a: 1 });
    const later = { timeMs: T0 + 86_400_000 };
    const seen = (u: ProfileUpdate) => props(set({}), u)!.$last_seen;
    expect(seen(update({ op: '$set_once', properties: { b: 1 } }, later))).toBe('2024-01-02T03:04:05');
    expect(seen(update({ op: '$union', properties: { l: [1] } }, later))).toBe('2024-01-02T03:04:05');
    expect(seen(update({ op: '$add', properties: { n: 1 } }, later))).toBe('2024-01-03T03:04:05');
    expect(seen(update({ op: '$append', properties: { l: 1 } }, later))).toBe('2024-01-03T03:04:05');
  });

  it('$last_seen never moves back, and an explicit $set of it wins', () => {
    expect(props(set({}, { timeMs: T0 + 1000 }), set({}, { timeMs: T0 }))!.$last_seen).toBe('2024-01-02T03:04:06');
    expect(props(set({ $last_seen: '2020-01-01T00:00:00' }))!.$last_seen).toBe('2020-01-01T00:00:00');
  });

  it('$set_once sets only missing properties, and creates the profile', () => {
    expect(
      props(update({ op: '$set_once', properties: { a: 1 } }), update({ op: '$set_once', properties: { a: 2, b: 3 } })),
    ).toMatchObject({ a: 1, b: 3 });
  });

  it('$add adds to numbers, a missing property counting as 0, negative values subtracting', () => {
    const add = (properties: Record<string, number>) => update({ op: '$add', properties });
    expect(props(add({ n: 2 }), add({ n: -5, m: 0.5 }))).toMatchObject({ n: -3, m: 0.5 });
  });

  it('$add to a property that is not a number fails the record and changes nothing', () => {
    const state = run(set({ s: 'text', n: 1 }));
    expect(failure(state, update({ op: '$add', properties: { n: 1, s: 1 } }))).toBe(
      '$add: "s" holds a string, not a number',
    );
    expect(failure(state, update({ op: '$add', properties: { n: Number.MAX_VALUE } }))).toBeUndefined();
    expect(
      failure(run(set({ big: Number.MAX_VALUE })), update({ op: '$add', properties: { big: Number.MAX_VALUE } })),
    ).toMatch(/range/);
    expect(state!.properties).toMatchObject({ s: 'text', n: 1 });
  });

  it('$add keeps integers beyond 2^53 exact', () => {
    const big = props(
      set({ big: JSON.rawJSON('9007199254740993') }),
      update({ op: '$add', properties: { big: 1 } }),
    )!.big;
    expect(JSON.stringify(big)).toBe('9007199254740994');
    expect(
      props(set({ big: JSON.rawJSON('9007199254740993') }), update({ op: '$add', properties: { big: -2 } }))!.big,
    ).toBe(9007199254740991);
  });

  it('$append appends one value, duplicates and lists included', () => {
    const append = (properties: Record<string, unknown>) => update({ op: '$append', properties } as ProfileOperation);
    expect(props(append({ l: 'a' }), append({ l: 'a' }), append({ l: ['b'] }))!.l).toEqual(['a', 'a', ['b']]);
  });

  it('$union adds each value at most once, keeping duplicates already there', () => {
    const union = (properties: Record<string, unknown[]>) => update({ op: '$union', properties } as ProfileOperation);
    const append = update({ op: '$append', properties: { l: 1 } });
    expect(props(append, append, union({ l: [1, 2, 2, { k: [1] }] }), union({ l: [{ k: [1] }, 3] }))!.l).toEqual([
      1,
      1,
      2,
      { k: [1] },
      3,
    ]);
  });

  it('$remove removes every occurrence; from a missing list it does nothing', () => {
    const remove = (properties: Record<string, unknown>) => update({ op: '$remove', properties } as ProfileOperation);
    expect(
      props(set({ l: ['a', 'b', 'a', { x: 1 }] }), remove({ l: 'a' }), remove({ l: { x: 1 } }), remove({ m: 'z' })),
    ).not.toHaveProperty('m');
    expect(props(set({ l: ['a', 'b', 'a'] }), remove({ l: 'a' }))!.l).toEqual(['b']);
  });

  it('list operations on a property that is not a list fail the record', () => {
    const state = run(set({ s: 's' }));
    expect(failure(state, update({ op: '$append', properties: { s: 1 } }))).toBe(
      '$append: "s" holds a string, not a list',
    );
    expect(failure(state, update({ op: '$union', properties: { s: [1] } }))).toBe(
      '$union: "s" holds a string, not a list',
    );
    expect(failure(state, update({ op: '$remove', properties: { s: 1 } }))).toBe(
      '$remove: "s" holds a string, not a list',
    );
  });

  it('$unset removes properties; $unset and $remove never create a profile', () => {
    expect(props(set({ a: 1, b: 2 }), update({ op: '$unset', names: ['a', 'zz'] }))).toEqual({
      $created: expect.any(String),
      $last_seen: expect.any(String),
      b: 2,
    });
    expect(run(update({ op: '$unset', names: ['a'] }))).toBeUndefined();
    expect(run(update({ op: '$remove', properties: { l: 1 } }))).toBeUndefined();
  });

  it('$delete removes the profile; a later update starts a new one', () => {
    expect(run(set({ a: 1 }), update({ op: '$delete', ignoreAlias: false }))).toBeUndefined();
    expect(
      props(set({ a: 1 }), update({ op: '$delete', ignoreAlias: true }), set({ b: 2 }, { timeMs: T0 + 5000 })),
    ).toEqual({
      $created: '2024-01-02T03:04:10',
      $last_seen: '2024-01-02T03:04:10',
      b: 2,
    });
  });

  it('an update with an older $time never overwrites a newer write of a property ($set and $unset)', () => {
    const newer = { timeMs: T0 + 1000, timed: true };
    const older = { timeMs: T0, timed: true };
    expect(props(set({ a: 'new', b: 1 }, newer), set({ a: 'old', c: 1 }, older))).toMatchObject({
      a: 'new',
      b: 1,
      c: 1,
    });
    expect(
      props(set({ a: 1 }), update({ op: '$unset', names: ['a'] }, newer), set({ a: 'old' }, older)),
    ).not.toHaveProperty('a');
    // Updates without $time apply in arrival order.
    expect(props(set({ a: 'first' }, newer), set({ a: 'second' }))).toMatchObject({ a: 'second' });
  });

  it('geolocated properties are set with the update', () => {
    expect(props(update({ op: '$set', properties: {} }, { geo: { $city: 'Paris' } }))).toMatchObject({
      $city: 'Paris',
    });
  });
});
