import { DEFAULT_PROFILE_LIMITS } from './profile-limits';
import { validateProfileRecord, RecordContext } from './validate-profile-record';

const NOW = Date.UTC(2026, 0, 1);
const user: RecordContext = { scope: 'user', projectId: 7, strict: false, nowMs: NOW, limits: DEFAULT_PROFILE_LIMITS };
const group: RecordContext = { ...user, scope: 'group' };
const strict: RecordContext = { ...user, strict: true };

const message = (raw: unknown, context = user) => {
  const outcome = validateProfileRecord(raw, context);
  return outcome.ok ? undefined : outcome.message;
};
const accepted = (raw: unknown, context = user) => {
  const outcome = validateProfileRecord(raw, context);
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome;
};

describe('validateProfileRecord', () => {
  it('reads a user update: identity, operation, and the receipt time when $time is absent', () => {
    expect(accepted({ $token: 't', $distinct_id: 'u1', $set: { plan: 'pro' } }).update).toEqual({
      projectId: 7,
      groupKey: '',
      profileId: 'u1',
      op: '$set',
      properties: { plan: 'pro' },
      timeMs: NOW,
      timed: false,
      ignoreTime: false,
    });
  });

  it('reads a group update; a numeric id becomes a string', () => {
    expect(accepted({ $group_key: 'company', $group_id: 42, $unset: ['a'] }, group).update).toMatchObject({
      groupKey: 'company',
      profileId: '42',
      op: '$unset',
      names: ['a'],
    });
  });

  it.each([
    [{ $set: {} }, '$distinct_id, missing or empty'],
    [{ $distinct_id: '', $set: {} }, '$distinct_id, missing or empty'],
    [{ $distinct_id: 'anonymous', $set: {} }, '"anonymous" is not allowed as $distinct_id'],
    [{ $distinct_id: 'x'.repeat(256), $set: {} }, '$distinct_id is longer than 255 characters'],
    [
      { $distinct_id: 'u' },
      'no operation: send one of $set, $set_once, $add, $union, $append, $remove, $unset, $delete',
    ],
    [{ $distinct_id: 'u', $set: {}, $add: {} }, 'more than one operation ($set, $add): send one per record'],
    [{ $distinct_id: 'u', $set: [] }, '$set must be an object of properties'],
    [{ $distinct_id: 'u', $add: { n: '1' } }, '$add.n must be a number'],
    [{ $distinct_id: 'u', $union: { l: 'a' } }, '$union.l must be a list'],
    [{ $distinct_id: 'u', $unset: 'a' }, '$unset must be a list of property names'],
    [{ $distinct_id: 'u', $set: { '': 1 } }, 'property names must not be empty'],
    [{ $distinct_id: 'u', $set: JSON.parse('{"__proto__": 1}') }, '"__proto__" is not allowed as a property name'],
    [{ $distinct_id: 'u', $set: { a: [[[[1]]]] } }, '$set.a is nested deeper than 3 levels'],
    [
      { $distinct_id: 'u', $set: {}, $time: 'yesterday' },
      '$time must be seconds or milliseconds since the epoch, or an ISO date',
    ],
    [{ $distinct_id: 'u', $set: {}, $latitude: 91, $longitude: 0 }, '$latitude must be a number from -90 to 90'],
    [{ $distinct_id: 'u', $set: {}, $latitude: 1 }, '$latitude and $longitude go together'],
    ['not an object', 'each update must be a JSON object'],
  ])('refuses %j: %s', (raw, expected) => {
    expect(message(raw)).toBe(expected);
  });

  it('refuses group operations the real API does not offer, and undefined group identities', () => {
    expect(message({ $group_key: 'company', $group_id: 'c', $add: { n: 1 } }, group)).toBe(
      '$add is not an operation of group profiles: use one of $set, $set_once, $unset, $union, $remove, $delete',
    );
    expect(message({ $group_key: 'company', $set: {} }, group)).toBe('$group_id, missing or empty');
    expect(message({ $group_id: 'c', $set: {} }, group)).toBe('$group_key, missing or empty');
  });

  it('stores custom $ names as sent, except in strict mode; reserved and SDK-sent $ names pass both', () => {
    const sdkSet = {
      $email: 'a@b.c',
      $os: 'Mac OS X',
      $browser: 'Chrome',
      $browser_version: 120,
      $android_app_version: '1.0',
      $transactions: [],
    };
    expect(accepted({ $distinct_id: 'u', $set: { ...sdkSet, $custom: 1 } }).update).toMatchObject({
      properties: { $custom: 1 },
    });
    expect(message({ $distinct_id: 'u', $set: { $custom: 1 } }, strict)).toBe(
      '"$custom": custom property names must not start with $',
    );
    expect(message({ $distinct_id: 'u', $set: sdkSet }, strict)).toBeUndefined();
  });

  it('reads $time in seconds, milliseconds or ISO form; a future time becomes now', () => {
    const time = (value: unknown) => accepted({ $distinct_id: 'u', $set: {}, $time: value }).update;
    expect(time(1_700_000_000)).toMatchObject({ timeMs: 1_700_000_000_000, timed: true });
    expect(time(1_700_000_000_123)).toMatchObject({ timeMs: 1_700_000_000_123 });
    expect(time(1_700_000_000.5)).toMatchObject({ timeMs: 1_700_000_000_500 });
    expect(time('2024-01-02T03:04:05')).toMatchObject({ timeMs: Date.UTC(2024, 0, 2, 3, 4, 5) });
    expect(time(NOW + 3_600_000)).toMatchObject({ timeMs: NOW });
  });

  it('reads the modifiers beside the operation', () => {
    const outcome = accepted({
      $distinct_id: 'u',
      $delete: null,
      $ignore_alias: true,
      $ignore_time: 'true',
      $ip: '203.0.113.9',
      $latitude: 48.85,
      $longitude: 2.35,
    });
    expect(outcome.update).toMatchObject({ op: '$delete', ignoreAlias: true, ignoreTime: true });
    expect(outcome.location).toEqual({ ip: '203.0.113.9', latitude: 48.85, longitude: 2.35 });
    expect(accepted({ $distinct_id: 'u', $set: {}, $ip: '0' }).location.ip).toBe(false);
  });

  it('truncates long strings and makes text storable in Postgres jsonb', () => {
    const { update } = accepted({
      $distinct_id: 'u',
      $set: { long: 'é'.repeat(300), nul: 'a\u0000b', lone: 'x\ud800y', 'k\u0000ey': 1 },
    });
    expect(update).toMatchObject({ properties: { long: 'é'.repeat(255), nul: 'ab', lone: 'x\ufffdy', key: 1 } });
  });

  it('refuses a record that alone would pass a profile limit, before it is acknowledged', () => {
    const small: RecordContext = {
      ...user,
      limits: { maxProperties: 2000, maxPropertyBytes: 1024, maxProfileBytes: 4096 },
    };
    const list = Array.from({ length: 200 }, (_, i) => i * 1000);
    const bytes = Buffer.byteLength(JSON.stringify(list));
    expect(message({ $distinct_id: 'u', $union: { l: list } }, small)).toBe(
      `$union.l would hold ${bytes} bytes; a profile property holds at most 1024`,
    );
    expect(message({ $distinct_id: 'u', $set: { l: list } }, small)).toMatch(/^\$set\.l would hold/);
    expect(
      message(
        {
          $distinct_id: 'u',
          $append: {
            l: 'x'
              .repeat(250)
              .split('')
              .map(() => 'abcd'),
          },
        },
        small,
      ),
    ).toMatch(/^\$append\.l would hold/);
    // Removing never grows a list.
    expect(message({ $distinct_id: 'u', $remove: { l: list } }, small)).toBeUndefined();
    const wide = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`p${i}`, list.slice(0, 100)]));
    expect(message({ $distinct_id: 'u', $set: wide }, small)).toMatch(
      /^\$set holds \d+ bytes of properties; a profile holds at most 4096$/,
    );
    expect(message({ $distinct_id: 'u', $union: { l: list.slice(0, 100) } }, small)).toBeUndefined();
  });
});
