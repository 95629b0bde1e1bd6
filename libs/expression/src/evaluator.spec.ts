import { evaluate, keepsRow, segmentKey } from './evaluator';
import { eventRow, profileRow } from './expression-row';
import { parseExpression } from './parser';
import { DateTime, Value } from './value';

/** 2024-04-01T19:33:20.500Z */
const TIME_MS = 1_712_000_000_500;

const EVENT = eventRow(
  {
    event: 'Signed up',
    timeMs: TIME_MS,
    properties: {
      time: 5,
      distinct_id: 'u1',
      $insert_id: 'i1',
      s: 'abc',
      n: 42,
      b: true,
      nul: null,
      l: ['a', 1, true, null, [1]],
      o: { k: 'v' },
      iso: '2024-04-01T12:00:00Z',
    },
  },
  { plan: 'pro' },
);

function value(expression: string): Value {
  return evaluate(parseExpression(expression), EVENT);
}

describe('evaluate', () => {
  it.each<[string, Value]>([
    // Properties: own keys only, paths into objects, column-backed names.
    ['properties["s"]', 'abc'],
    ['properties["o"]["k"]', 'v'],
    ['properties["o"]["missing"]', undefined],
    ['properties["s"]["k"]', undefined],
    ['properties["l"]["0"]', undefined],
    ['properties["__proto__"]', undefined],
    ['properties["constructor"]', undefined],
    ['properties["time"]', 1_712_000_000],
    ['properties["time"]["k"]', undefined],
    // `$time` is the event's time as a datetime, as the ETL connectors' export filters read it.
    ['properties["$time"] >= datetime(1712000000)', true],
    ['properties["$time"] < datetime(1712000000)', false],
    ['properties["$time"] == event["$time"]', true],
    ['properties["$time"]["k"]', undefined],
    ['properties["distinct_id"]', 'u1'],
    ['properties["$insert_id"]', 'i1'],
    ['user["plan"]', 'pro'],
    ['user["missing"]', undefined],
    // Arithmetic: numbers only, finite only.
    ['1 + 2 * 3', 7],
    ['"a" + "b"', 'ab'],
    ['1 + "a"', undefined],
    ['properties["missing"] + 1', undefined],
    ['true + 1', undefined],
    ['1 / 0', undefined],
    ['0 / 0', undefined],
    ['1e308 * 10', undefined],
    ['-7 % 3', -1],
    ['7 % -3', 1],
    ['7.5 % 2', 1.5],
    ['5 % 0', undefined],
    ['-properties["s"]', undefined],
    // Equality: same kind and value; never across kinds.
    ['1 == "1"', false],
    ['1 != "1"', true],
    ['null == null', true],
    ['properties["nul"] == null', true],
    ['properties["missing"] == properties["other"]', true],
    ['properties["missing"] == null', false],
    ['properties["missing"] != "x"', true],
    ['[1] == [1]', false],
    ['properties["o"] == properties["o"]', false],
    ['datetime(0) == datetime("1970-01-01")', true],
    // Ordering: numbers, strings, datetimes; anything else undefined.
    ['1 < "2"', undefined],
    ['"a" < "b"', true],
    ['"B" < "a"', true],
    ['"\uE000" < "😀"', true],
    ['true < false', undefined],
    ['null <= null', undefined],
    ['datetime(1) < datetime(2)', true],
    ['datetime(1) < 2', undefined],
    // in: substring, or membership by ==.
    ['"b" in "abc"', true],
    ['"" in "abc"', true],
    ['"B" in "abc"', false],
    ['1 in [1, 2]', true],
    ['"1" in [1]', false],
    ['null in properties["l"]', true],
    ['true in properties["l"]', true],
    ['[1] in properties["l"]', false],
    ['properties["missing"] in ["a"]', false],
    ['1 in "1"', undefined],
    ['"k" in properties["o"]', undefined],
    ['"a" in properties["missing"]', undefined],
    // Logic: only true is true.
    ['not properties["missing"]', true],
    ['properties["missing"] and true', false],
    ['properties["missing"] or true', true],
    ['"abc" or false', false],
    ['not "abc"', true],
    ['properties["b"] and 1 < 2', true],
    // Casts.
    ['boolean("false")', false],
    ['boolean("0")', true],
    ['boolean("")', false],
    ['boolean(0)', false],
    ['boolean(properties["l"])', true],
    ['boolean([])', true],
    ['boolean(null)', false],
    ['boolean(properties["missing"])', false],
    ['number("1.5")', 1.5],
    ['number("-.5e1")', -5],
    ['number(" 1")', undefined],
    ['number("0x10")', undefined],
    ['number("Infinity")', undefined],
    ['number("1e400")', undefined],
    ['number("")', undefined],
    ['number(true)', 1],
    ['number(null)', undefined],
    ['number(datetime(1.5))', 1.5],
    ['string(42)', '42'],
    ['string(0.1 + 0.2)', '0.30000000000000004'],
    ['string(1e21)', '1e+21'],
    ['string(-0)', '0'],
    ['string(true)', 'true'],
    ['string(null)', 'null'],
    ['string(properties["missing"])', undefined],
    ['string(properties["l"])', undefined],
    ['string(event["$time"])', '2024-04-01T19:33:20'],
    // Rounding: halves away from zero.
    ['round(2.5)', 3],
    ['round(-2.5)', -3],
    ['round(1.4999999999999998)', 1],
    ['round(0.49999999999999994)', 0],
    ['floor(-0.5)', -1],
    ['ceil(1.2)', 2],
    ['ceil("1")', undefined],
    // Datetimes.
    ['defined(properties["nul"])', true],
    ['defined(properties["missing"])', false],
    ['datetime("2024-02-30")', undefined],
    ['datetime("2024-02-29T10:00")', new DateTime(Date.UTC(2024, 1, 29, 10))],
    ['datetime("2024-01-02T03:04:05.6789+01:00")', new DateTime(Date.UTC(2024, 0, 2, 2, 4, 5, 678))],
    ['datetime("2024-01-02T03:04:05.6")', new DateTime(Date.UTC(2024, 0, 2, 3, 4, 5, 600))],
    ['datetime("1899-12-31")', undefined],
    ['datetime("2024-1-2")', undefined],
    ['datetime(1712000000.5) == event["$time"]', true],
    ['datetime(-0.0005)', new DateTime(-1)],
    ['datetime(1e300)', undefined],
    ['datetime(true)', undefined],
    ['event["$time"] > datetime(properties["iso"])', true],
  ])('%s is %p', (expression, expected) => {
    expect(value(expression)).toEqual(expected);
  });

  it('reads a profile through both properties and user, with no event time', () => {
    const row = profileRow({ $distinct_id: 'u1', properties: { $email: 'ada@example.com' } });
    expect(evaluate(parseExpression('properties["$email"] == user["$email"]'), row)).toBe(true);
    expect(evaluate(parseExpression('event["$time"]'), row)).toBeUndefined();
  });

  it('reads user properties as undefined when no profile is joined', () => {
    const row = eventRow({ event: 'e', timeMs: 0, properties: {} });
    expect(evaluate(parseExpression('user["plan"]'), row)).toBeUndefined();
    expect(evaluate(parseExpression('properties["distinct_id"]'), row)).toBe('');
  });
});

describe('keepsRow', () => {
  it.each([
    ['properties["b"]', true],
    ['properties["s"]', false],
    ['properties["n"]', false],
    ['properties["missing"] == 1', false],
    ['1 < "2"', false],
  ])('%s keeps the row: %p', (expression, kept) => {
    expect(keepsRow(parseExpression(expression), EVENT)).toBe(kept);
  });
});

describe('segmentKey', () => {
  it.each([
    ['properties["s"]', 'abc'],
    ['properties["n"] / 4', '10.5'],
    ['properties["b"]', 'true'],
    ['properties["nul"]', 'null'],
    ['properties["l"]', undefined],
    ['properties["o"]', undefined],
    ['properties["missing"]', undefined],
    ['datetime(properties["iso"])', '2024-04-01T12:00:00'],
  ])('%s segments as %p', (expression, key) => {
    expect(segmentKey(parseExpression(expression), EVENT)).toBe(key);
  });
});
