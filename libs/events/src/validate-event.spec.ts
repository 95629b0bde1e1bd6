import { randomUUID } from 'node:crypto';
import { EVENT_LIMITS } from './event-limits';
import { serializeProperties, utf8SizeBound } from './event-row';
import { parseJson } from './parse-json';
import { partitionFor } from './partition';
import { EventContext, EventOutcome, validateEvent } from './validate-event';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const importContext: EventContext = {
  projectId: 3,
  nowMs: NOW,
  policy: 'import',
  requireInsertId: true,
  newInsertId: randomUUID,
};
const trackContext: EventContext = { ...importContext, policy: 'track', requireInsertId: false };

const event = (properties: Record<string, unknown>, name = 'Signed up') => ({
  event: name,
  properties: { time: NOW / 1000 - 60, distinct_id: 'u1', $insert_id: 'id-1', ...properties },
});

function stored(outcome: EventOutcome): Record<string, unknown> {
  if (outcome.kind !== 'accepted') throw new Error(`not accepted: ${JSON.stringify(outcome)}`);
  return JSON.parse(outcome.row.line) as Record<string, unknown>;
}
const rejection = (outcome: EventOutcome) =>
  outcome.kind === 'rejected' ? { field: outcome.field, message: outcome.message } : outcome;

describe('validateEvent', () => {
  it('shapes an accepted event into the stored row, without the reserved properties', () => {
    const row = stored(
      validateEvent(event({ token: 'tok', plan: 'pro', n: 1.5, nested: { a: [1, 'x'] } }), importContext),
    );
    expect(row).toEqual({
      project_id: 3,
      event: 'Signed up',
      time: `${NOW / 1000 - 60}.000`,
      distinct_id: 'u1',
      insert_id: 'id-1',
      properties: { plan: 'pro', n: 1.5, nested: { a: [1, 'x'] } },
      processed_at: `${NOW / 1000}.000`,
    });
  });

  it.each([
    ['integer seconds', 1_700_000_000, '1700000000.000'],
    ['integer milliseconds', 1_700_000_000_123, '1700000000.123'],
    ['fractional seconds', 1_700_000_000.4567, '1700000000.457'],
    ['fractional milliseconds', 1_715_000_000_000.5, '1715000000.001'],
    ['fractional milliseconds, 12 digits', 100_000_000_000.25, '100000000.000'],
  ])('reads time as %s', (_, time, expected) => {
    expect(stored(validateEvent(event({ time }), importContext)).time).toBe(expected);
  });

  it('keeps a time up to an hour ahead as sent, and refuses one further ahead or before 1971', () => {
    expect(stored(validateEvent(event({ time: NOW / 1000 + 3000 }), importContext)).time).toBe(
      `${NOW / 1000 + 3000}.000`,
    );
    expect(stored(validateEvent(event({ time: NOW / 1000 + 3000 }), trackContext)).time).toBe(
      `${NOW / 1000 + 3000}.000`,
    );
    expect(rejection(validateEvent(event({ time: NOW / 1000 + 3700 }), importContext))).toEqual({
      field: 'properties.time',
      message: 'properties.time is more than an hour in the future',
    });
    expect(rejection(validateEvent(event({ time: 31_535_999 }), importContext))).toMatchObject({
      message: 'properties.time is before 1971-01-01',
    });
  });

  it('stores a retry of an event from a clock ahead at the time of the first delivery, so the dedup key matches', () => {
    const fromFastClock = event({ time: NOW / 1000 + 1800, $insert_id: 'retried' });
    for (const context of [importContext, trackContext]) {
      const first = stored(validateEvent(fromFastClock, context));
      const retry = stored(validateEvent(fromFastClock, { ...context, nowMs: NOW + 2_000 }));
      expect([retry.time, retry.insert_id]).toEqual([first.time, first.insert_id]);
    }
  });

  it('requires event, properties, time, distinct_id and $insert_id on /import', () => {
    expect(rejection(validateEvent({ properties: {} }, importContext))).toMatchObject({ field: 'event' });
    expect(rejection(validateEvent({ event: 'x' }, importContext))).toMatchObject({ field: 'properties' });
    expect(rejection(validateEvent(event({ time: undefined }), importContext))).toMatchObject({
      field: 'properties.time',
    });
    expect(rejection(validateEvent(event({ time: '1700000000' }), importContext))).toMatchObject({
      field: 'properties.time',
    });
    expect(rejection(validateEvent(event({ distinct_id: undefined }), importContext))).toMatchObject({
      field: 'properties.distinct_id',
    });
    expect(rejection(validateEvent(event({ $insert_id: undefined }), importContext))).toMatchObject({
      field: 'properties.$insert_id',
    });
  });

  it('on /track takes the receipt time, makes an $insert_id, and accepts only the last 5 days', () => {
    const row = stored(validateEvent(event({ time: undefined, $insert_id: undefined }), trackContext));
    expect(row.time).toBe(`${NOW / 1000}.000`);
    expect(row.insert_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(rejection(validateEvent(event({ time: NOW / 1000 - 6 * 86400 }), trackContext))).toMatchObject({
      field: 'properties.time',
    });
  });

  it.each(['anonymous', 'NULL', 'undefined', '0', '-1', '[]', '00000000-0000-0000-0000-000000000000'])(
    'refuses the placeholder id %s',
    (id) => {
      expect(rejection(validateEvent(event({ distinct_id: id }), importContext))).toMatchObject({
        field: 'properties.distinct_id',
      });
      expect(rejection(validateEvent(event({ $insert_id: id }), importContext))).toMatchObject({
        field: 'properties.$insert_id',
      });
    },
  );

  it('allows an empty distinct_id and a numeric one', () => {
    expect(stored(validateEvent(event({ distinct_id: '' }), importContext)).distinct_id).toBe('');
    expect(stored(validateEvent(event({ distinct_id: 42 }), importContext)).distinct_id).toBe('42');
  });

  it('checks the $insert_id charset and length', () => {
    expect(validateEvent(event({ $insert_id: 'a'.repeat(36) }), importContext).kind).toBe('accepted');
    expect(rejection(validateEvent(event({ $insert_id: 'a'.repeat(37) }), importContext))).toMatchObject({
      field: 'properties.$insert_id',
    });
    expect(rejection(validateEvent(event({ $insert_id: 'has space' }), importContext))).toMatchObject({
      field: 'properties.$insert_id',
    });
  });

  it('prefers $user_id, and makes $device:<id> when only a device id is given', () => {
    expect(stored(validateEvent(event({ $user_id: 'alice' }), importContext)).distinct_id).toBe('alice');
    expect(stored(validateEvent(event({ distinct_id: undefined, $device_id: 'd-9' }), importContext)).distinct_id).toBe(
      '$device:d-9',
    );
  });

  it('drops an event carrying $ignore, silently', () => {
    expect(validateEvent(event({ $ignore: true }), importContext)).toEqual({ kind: 'skipped', reason: 'ignored' });
    expect(validateEvent(event({ $ignore: false }), importContext).kind).toBe('accepted');
  });

  it('truncates long strings at any depth, never inside a surrogate pair', () => {
    const long = 'x'.repeat(300);
    const emoji = `${'y'.repeat(254)}😀`;
    const props = stored(validateEvent(event({ long, list: [long], obj: { inner: long }, emoji }), importContext))
      .properties as Record<string, unknown>;
    expect(props.long).toHaveLength(255);
    expect((props.list as string[])[0]).toHaveLength(255);
    expect((props.obj as Record<string, string>).inner).toHaveLength(255);
    expect(props.emoji).toBe('y'.repeat(254));
  });

  it('enforces property count, nesting depth, list and object sizes', () => {
    // 251 custom + time, distinct_id and $insert_id = 254 properties: the most allowed.
    const many = Object.fromEntries(Array.from({ length: 251 }, (_, i) => [`p${i}`, i]));
    expect(validateEvent(event(many), importContext).kind).toBe('accepted');
    expect(rejection(validateEvent(event({ ...many, extra: 1 }), importContext))).toMatchObject({
      field: 'properties',
    });
    expect(validateEvent(event({ a: { b: { c: { d: 1 } } } }), importContext).kind).toBe('accepted');
    expect(rejection(validateEvent(event({ a: { b: { c: { d: { e: 1 } } } } }), importContext))).toMatchObject({
      field: 'properties.a.b.c.d',
    });
    expect(rejection(validateEvent(event({ l: [[[[1]]]] }), importContext))).toMatchObject({ field: 'properties.l' });
    expect(rejection(validateEvent(event({ list: Array(255).fill(1) }), importContext))).toMatchObject({
      field: 'properties.list',
    });
    expect(validateEvent(event({ list: Array(254).fill(1) }), importContext).kind).toBe('accepted');
    const wide = Object.fromEntries(Array.from({ length: 255 }, (_, i) => [`k${i}`, i]));
    expect(rejection(validateEvent(event({ wide }), importContext))).toMatchObject({ field: 'properties.wide' });
  });

  it('refuses an event of 1 MB or more', () => {
    const big = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`p${i}`, Array(200).fill('z'.repeat(30))]));
    expect(EVENT_LIMITS.maxEventBytes).toBe(1_000_000);
    expect(rejection(validateEvent(event(big), importContext))).toMatchObject({ message: 'event is 1 MB or larger' });
  });

  it('reports the offending $insert_id with a rejection', () => {
    expect(validateEvent(event({ time: 'soon', $insert_id: 'abc' }), importContext)).toMatchObject({
      kind: 'rejected',
      insertId: 'abc',
    });
  });

  it('records the request ip as $ip when asked and the event has none', () => {
    const props = stored(validateEvent(event({}), { ...trackContext, ip: '203.0.113.9' })).properties;
    expect(props).toEqual({ $ip: '203.0.113.9' });
  });

  it('applies the data dictionary: dropped events are skipped, dropped properties removed', () => {
    const dictionary = {
      isEventDropped: (name: string) => name === 'Noise',
      droppedProperties: (name: string) => (name === 'Signed up' ? new Set(['secret']) : undefined),
    };
    expect(validateEvent(event({}, 'Noise'), { ...importContext, dictionary })).toEqual({
      kind: 'skipped',
      reason: 'dropped',
    });
    expect(stored(validateEvent(event({ secret: 1, kept: 2 }), { ...importContext, dictionary })).properties).toEqual({
      kept: 2,
    });
  });

  it('stores unpaired surrogates as U+FFFD in names, values, keys and ids, keeping real pairs', () => {
    const parsed = parseJson(
      '{"event":"a\\ud800b","properties":{"time":1700000000,"distinct_id":"x\\udc00","$insert_id":"i","k\\udbff":"v\\ud800","l":["\\udfff",{"n\\ud83d":"\\ud83d\\ude00"}]}}',
    );
    const row = stored(validateEvent(parsed, importContext));
    expect(row).toMatchObject({ event: 'a\ufffdb', distinct_id: 'x\ufffd' });
    expect(row.properties).toEqual({ 'k\ufffd': 'v\ufffd', l: ['\ufffd', { 'n\ufffd': '😀' }] });
    expect((validateEvent(parsed, importContext) as { row: { line: string } }).row.line).not.toMatch(/\\ud[89a-f]/);
  });

  it('applies the data dictionary to the repaired event name', () => {
    const dictionary = { isEventDropped: (name: string) => name === 'a\ufffd', droppedProperties: () => undefined };
    expect(validateEvent(event({}, 'a\ud800'), { ...importContext, dictionary })).toEqual({
      kind: 'skipped',
      reason: 'dropped',
    });
  });

  it('keeps a backslash sent as text, and NUL and other control characters (ClickHouse stores them)', () => {
    const props = stored(
      validateEvent(event({ text: '\\ud800', ctl: 'a\u0000\u0001\u001f\u007f\u2028b' }, 'e\u0000'), importContext),
    );
    expect(props.event).toBe('e\u0000');
    expect(props.properties).toEqual({ text: '\\ud800', ctl: 'a\u0000\u0001\u001f\u007f\u2028b' });
  });

  it('keeps integers beyond 2^53 exactly as sent', () => {
    const parsed = parseJson(
      '{"event":"e","properties":{"time":1700000000,"distinct_id":"u","$insert_id":"i","big":12345678901234567890,"neg":-98765432109876543210,"f":0.1}}',
    );
    const line = (validateEvent(parsed, importContext) as { row: { line: string } }).row.line;
    expect(line).toContain('"properties":{"big":12345678901234567890,"neg":-98765432109876543210,"f":0.1}');
  });

  it('stores doubles sent beyond 64-bit integers in exponent form, at any depth, and smaller integers as digits', () => {
    const parsed = parseJson(
      '{"event":"e","properties":{"time":1700000000,"distinct_id":"u","$insert_id":"i","d":1.2161358906947114e20,"l":[{"d":1e19}],"neg":-1e20,"below":4611686018427388000}}',
    );
    const line = (validateEvent(parsed, importContext) as { row: { line: string } }).row.line;
    expect(line).toContain(
      '"properties":{"d":1.2161358906947114e+20,"l":[{"d":1e+19}],"neg":-1e+20,"below":4611686018427388000}',
    );
  });
});

describe('serializeProperties', () => {
  it('writes doubles beyond 64-bit integers in exponent form, and keeps sent digits of exact integers', () => {
    expect(serializeProperties({ d: 121613589069471140000, small: 12345 })).toBe(
      '{"d":1.2161358906947114e+20,"small":12345}',
    );
    expect(serializeProperties({ exact: JSON.rawJSON('123456789012345678901234') })).toBe(
      '{"exact":123456789012345678901234}',
    );
    expect(serializeProperties({ text: '12345678901234567890123' })).toBe('{"text":"12345678901234567890123"}');
    expect(serializeProperties({ l: [{ d: 2 ** 64 }], neg: -(2 ** 70), below: 2 ** 62 })).toBe(
      '{"l":[{"d":1.8446744073709552e+19}],"neg":-1.1805916207174113e+21,"below":4611686018427388000}',
    );
  });
});

describe('utf8SizeBound', () => {
  it('is never below the UTF-8 size: ASCII, accents, CJK, emoji, lone surrogates', () => {
    for (const text of [
      '',
      'plain ascii',
      'é',
      '€uro',
      '漢字かな',
      '😀😀',
      '\ud800',
      'a\udfffb',
      '\u0000\u007f\u0080\u07ff\u0800\uffff',
    ]) {
      expect(utf8SizeBound(text)).toBeGreaterThanOrEqual(Buffer.byteLength(text));
    }
  });
});

describe('partitionFor', () => {
  it('sends one user to one partition and spreads users over all partitions', () => {
    expect(partitionFor(1, 'alice', 12)).toBe(partitionFor(1, 'alice', 12));
    const used = new Set(Array.from({ length: 500 }, (_, i) => partitionFor(1, `user-${i}`, 12)));
    expect(used.size).toBe(12);
  });
});
