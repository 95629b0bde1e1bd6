import { applyProfileUpdate, applyToDraft, ProfileState } from './apply-profile-update';
import { ProfileDraft } from './profile-draft';
import { DEFAULT_PROFILE_LIMITS, ProfileLimits } from './profile-limits';
import { ProfileOperation, ProfileUpdate, PropertyValue } from './profile-update';

const T0 = Date.UTC(2024, 0, 2, 3, 4, 5);
const update = (operation: ProfileOperation): ProfileUpdate =>
  ({
    projectId: 1,
    groupKey: '',
    profileId: 'u',
    timeMs: T0,
    timed: false,
    ignoreTime: false,
    ...operation,
  }) as ProfileUpdate;
const set = (properties: Record<string, unknown>) => update({ op: '$set', properties } as ProfileOperation);
const union = (properties: Record<string, unknown[]>) => update({ op: '$union', properties } as ProfileOperation);
const remove = (properties: Record<string, unknown>) => update({ op: '$remove', properties } as ProfileOperation);
const unset = (...names: string[]) => update({ op: '$unset', names });

/** Applies updates in order from `state` under `limits`; the refusals, and the state after. */
function run(limits: Partial<ProfileLimits>, updates: ProfileUpdate[], state?: ProfileState) {
  const refusals: (string | undefined)[] = [];
  for (const u of updates) {
    const outcome = applyProfileUpdate(state, u, { ...DEFAULT_PROFILE_LIMITS, ...limits });
    refusals.push(outcome.ok ? undefined : outcome.message);
    if (outcome.ok) state = outcome.state;
  }
  return { refusals, state };
}

/** Objects whose only property counts how often it is read: a stand-in for comparisons. */
function counted(reads: { count: number }, from: number, n: number): PropertyValue[] {
  return Array.from({ length: n }, (_, i) => ({
    get id() {
      reads.count++;
      return from + i;
    },
  })) as unknown as PropertyValue[];
}

describe('$union and $remove cost what they add, not the list times the values', () => {
  it('one $union of n new values onto a list of n reads each value a few times, not n times', () => {
    const n = 1000;
    const reads = { count: 0 };
    const stored: ProfileState = { properties: { l: counted(reads, 0, n) }, stamps: {} };
    const outcome = applyProfileUpdate(stored, union({ l: [...counted(reads, n, n), ...counted(reads, 0, 10)] }));
    expect(outcome.ok && (outcome.state!.properties.l as PropertyValue[]).length).toBe(2 * n);
    // Comparing each new value with each stored one reads about 2·n² = 2,000,000 times.
    expect(reads.count).toBeLessThan(10 * 2 * n);
  });

  it('a batch of $union and $remove on one profile reads each value a bounded number of times', () => {
    const reads = { count: 0 };
    const draft = new ProfileDraft(undefined, DEFAULT_PROFILE_LIMITS);
    const batches = 500;
    for (let b = 0; b < batches; b++) {
      expect(applyToDraft(draft, union({ l: counted(reads, b * 10, 10) }))).toBeUndefined();
      expect(applyToDraft(draft, remove({ l: { id: b * 10 } }))).toBeUndefined();
    }
    const list = draft.state()!.properties.l as { id: number }[];
    expect(list).toHaveLength(batches * 9);
    expect(list.slice(0, 3).map((item) => item.id)).toEqual([1, 2, 3]);
    expect(reads.count).toBeLessThan(10 * batches * 10);
  });

  it('keeps equality exact for numbers beyond 2^53, whether kept as digits or not', () => {
    const big = JSON.rawJSON('9007199254740993');
    const { state } = run({}, [
      set({ l: [big, 1e21, 0] }),
      union({ l: [JSON.rawJSON('9007199254740993'), 9007199254740992, JSON.rawJSON('1000000000000000000000'), -0] }),
    ]);
    expect(JSON.stringify(state!.properties.l)).toBe('[9007199254740993,1e+21,0,9007199254740992]');
  });
});

describe('profile limits, enforced when an update applies', () => {
  it('refuses an update that would take the profile past its properties; the profile is unchanged', () => {
    // $created and $last_seen count.
    const { refusals, state } = run({ maxProperties: 4 }, [
      set({ a: 1, b: 2 }),
      set({ c: 3, a: 9 }),
      set({ a: 5 }),
      unset('b'),
      set({ c: 3 }),
    ]);
    expect(refusals).toEqual([
      undefined,
      '$set: the profile would have 5 properties; at most 4 are allowed',
      undefined,
      undefined,
      undefined,
    ]);
    expect(state!.properties).toMatchObject({ a: 5, c: 3 });
  });

  it('refuses a list that would pass its bytes; $remove still shrinks it, and a full list still takes what it holds', () => {
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((letter) => letter.repeat(10));
    // Three items of 12 bytes are 40 bytes with the brackets and commas; four are 53.
    const { refusals, state } = run({ maxPropertyBytes: 50 }, [
      union({ l: [a, b, c] }),
      union({ l: [d] }),
      union({ l: [c, b] }),
      remove({ l: b }),
      union({ l: [d] }),
    ]);
    expect(refusals).toEqual([
      undefined,
      '$union: "l" would hold 53 bytes; a property holds at most 50',
      undefined,
      undefined,
      undefined,
    ]);
    expect(state!.properties.l).toEqual([a, c, d]);
    const appended = run({ maxPropertyBytes: 50 }, [
      update({ op: '$append', properties: { l: 'x'.repeat(40) } }),
      update({ op: '$append', properties: { l: 'y'.repeat(5) } }),
    ]);
    expect(appended.refusals[1]).toBe('$append: "l" would hold 52 bytes; a property holds at most 50');
  });

  it('refuses an update that would pass the profile bytes, counted as its JSON', () => {
    const { refusals, state } = run({ maxProfileBytes: 120 }, [set({ a: 'x'.repeat(30) }), set({ b: 'y'.repeat(30) })]);
    const size = Buffer.byteLength(JSON.stringify({ ...state!.properties, b: 'y'.repeat(30) }));
    expect(refusals).toEqual([undefined, `$set: the profile would hold ${size} bytes; at most 120 are allowed`]);
    expect(state!.properties).not.toHaveProperty('b');
  });

  it('lets a profile already past a limit (folded, or limits lowered) shrink or stay, never grow', () => {
    const big: ProfileState = {
      properties: { $last_seen: '2024-01-02T03:04:05', a: 1, b: 2, c: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13] },
      stamps: {},
    };
    const { refusals } = run(
      { maxProperties: 2, maxPropertyBytes: 30 },
      [remove({ c: 1 }), set({ a: 2 }), union({ c: [2] }), set({ d: 1 }), union({ c: [99] })],
      big,
    );
    expect(refusals.map((r) => r?.replace(/:.*/, ''))).toEqual([undefined, undefined, undefined, '$set', '$union']);
  });

  it('a refused update inside a batch leaves the draft as before, lists included', () => {
    const draft = new ProfileDraft(undefined, { ...DEFAULT_PROFILE_LIMITS, maxPropertyBytes: 25 });
    expect(applyToDraft(draft, union({ l: ['a'], m: [1] }))).toBeUndefined();
    expect(applyToDraft(draft, union({ l: ['b'], m: ['x'.repeat(30)] }))).toMatchObject({
      message: expect.stringMatching(/"m" would hold/),
      limit: 'property_bytes',
    });
    expect(applyToDraft(draft, update({ op: '$union', properties: { n: [1], s: [2] } }))).toBeUndefined();
    expect(applyToDraft(draft, update({ op: '$add', properties: { z: 1, n: 1 } }))).toEqual({
      message: '$add: "n" holds a list, not a number',
      limit: undefined,
    });
    expect(applyToDraft(draft, union({ l: ['b'] }))).toBeUndefined();
    expect(draft.state()!.properties).toEqual({
      $created: '2024-01-02T03:04:05',
      l: ['a', 'b'],
      m: [1],
      n: [1],
      s: [2],
    });
  });
});
