import fc from 'fast-check';
import { END_DATETIME_MS, MIN_DATETIME_MS } from '../datetime';
import { JsonObject, JsonValue } from '../value';

/**
 * Event generators for the agreement tests: values drawn from small shared pools, so that
 * equalities, memberships and casts hit often, plus free-form values for the corners.
 */

/** Names events carry, each mostly holding one kind; `zz` never occurs, the reserved names read columns. */
export const PROPERTY_NAMES = [
  's',
  'n',
  'b',
  'l',
  'o',
  'x',
  'iso',
  'num',
  '',
  'é k',
  '__proto__',
  'zz',
  'time',
  'distinct_id',
  '$insert_id',
];
export const NESTED_KEYS = ['k', 's', 'n'];

const TEXT_STRINGS = [
  '',
  'a',
  'b',
  'ab',
  'A',
  'é',
  'z',
  '😀',
  'a\nb',
  '"',
  '\\',
  "'",
  '%',
  '_',
  '{w_0:String}',
  'true',
  'false',
  'null',
];
const NUMERIC_STRINGS = [
  '1',
  '1.5',
  '-2',
  '+5',
  '.5',
  '5.',
  '1e3',
  '1E+2',
  '1e400',
  ' 1',
  '0x10',
  'Infinity',
  'NaN',
  '00012',
  '-0',
  '1e-400',
  '1_000',
  '',
  '0.1000000000000000055511151231257827',
  '123456789012345678901234567890',
  '2.2250738585072011e-308',
  '4.9e-324',
  '9007199254740993',
];
const ISO_STRINGS = [
  '2024-01-02',
  '2024-01-02T03:04:05',
  '2024-01-02 03:04:05.123456',
  '2024-02-29T10:00:00+05:30',
  '2024-01-02T03:04Z',
  '2023-02-29',
  '2024-04-31',
  '2024-13-01',
  '2024-01-02T24:00:00',
  '1899-12-31',
  '1900-01-01T00:30:00+01:00',
  '2299-12-31T23:59:59-01:00',
  '2299-12-31T23:59:59.999',
  '1970-01-01T00:00:00.0005',
  '2024-1-2',
  '1969-12-31T23:59:59.999Z',
];
export const STRINGS = [...TEXT_STRINGS, ...NUMERIC_STRINGS, ...ISO_STRINGS];

export const NUMBERS = [
  0,
  1,
  -1,
  2,
  3,
  0.5,
  1.5,
  -2.5,
  2.5,
  10,
  100,
  0.1,
  0.2,
  0.3,
  1e21,
  1e-7,
  1e308,
  -1e308,
  123456789.123,
  2 ** 53,
  2 ** 53 + 2,
  1e16,
  1700000000,
  1712000000.5,
  -1700000000,
  5e-324,
  10413791999.999,
  -2208988800,
];

const text = fc.oneof(
  { arbitrary: fc.constantFrom(...TEXT_STRINGS), weight: 4 },
  { arbitrary: fc.constantFrom(...NUMERIC_STRINGS, ...ISO_STRINGS), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }), weight: 1 },
);
const number = fc.oneof(
  { arbitrary: fc.constantFrom(...NUMBERS), weight: 4 },
  { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 1 },
  { arbitrary: fc.integer({ min: -1000, max: 1000 }), weight: 2 },
);
const scalar: fc.Arbitrary<JsonValue> = fc.oneof(text, number, fc.boolean(), fc.constant(null));

function objectOf(keys: readonly string[], value: (key: string) => fc.Arbitrary<JsonValue>): fc.Arbitrary<JsonObject> {
  const entries = keys.map((key) =>
    fc.option(
      value(key).map((item) => [key, item] as const),
      { freq: 7, nil: undefined },
    ),
  );
  // fromEntries makes own properties even of `__proto__`.
  return fc.tuple(...entries).map((pairs) => Object.fromEntries(pairs.filter((pair) => pair !== undefined)));
}

const list = fc.array(scalar, { maxLength: 4 });
const object = objectOf(NESTED_KEYS, () => scalar);
const anything: fc.Arbitrary<JsonValue> = fc.oneof(
  { arbitrary: scalar, weight: 4 },
  { arbitrary: list, weight: 1 },
  { arbitrary: object, weight: 1 },
);

/** Mostly the name's own kind, sometimes anything at all. */
const TYPICAL: Readonly<Record<string, fc.Arbitrary<JsonValue>>> = {
  s: text,
  n: number,
  b: fc.boolean(),
  l: list,
  o: object,
  iso: fc.constantFrom(...ISO_STRINGS),
  num: fc.constantFrom(...NUMERIC_STRINGS),
};

function propertyValue(name: string): fc.Arbitrary<JsonValue> {
  if (!Object.hasOwn(TYPICAL, name)) return anything;
  return fc.oneof({ arbitrary: TYPICAL[name], weight: 5 }, { arbitrary: anything, weight: 1 });
}

/** An event as the agreement tests store it: columns plus custom properties; `user` is its joined profile. */
export interface GeneratedEvent {
  readonly timeMs: number;
  readonly distinctId: string;
  readonly insertId: string;
  readonly properties: JsonObject;
  readonly user: JsonObject | undefined;
}

const customNames = PROPERTY_NAMES.filter((name) => !['time', 'distinct_id', '$insert_id', 'zz'].includes(name));

export const eventArbitrary: fc.Arbitrary<GeneratedEvent> = fc.record({
  timeMs: fc.oneof(
    fc.integer({ min: 1_600_000_000_000, max: 1_800_000_000_000 }),
    fc.integer({ min: MIN_DATETIME_MS, max: END_DATETIME_MS - 1 }),
    fc.constantFrom(0, -1, -999, -1000, -1001, 1_704_164_645_678, 1_700_000_000_000),
  ),
  distinctId: fc.constantFrom('', 'u1', 'u2', 'a', '1'),
  insertId: fc.constantFrom('i1', 'i2', 'a'),
  properties: objectOf(customNames, propertyValue),
  user: fc.option(objectOf(customNames, propertyValue), { nil: undefined }),
});
