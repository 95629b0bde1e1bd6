import fc from 'fast-check';

/**
 * Hostile leaves: strings, numbers and JSON texts that parsers, validators, SQL builders and the
 * engines have to survive. JSON is generated as text, not objects, so that it can hold what no
 * JavaScript value can: 1e400, 2^64 with every digit, lone surrogate escapes, duplicate keys.
 */

/** SQL and ClickHouse quoting, bound-parameter placeholders, escapes and percent tricks. */
export const INJECTIONS = [
  "'",
  "' OR 1=1 --",
  "1' OR '1'='1",
  '" OR ""="',
  "'; DROP TABLE events; --",
  '{x:String}',
  '{project_id:UInt32}',
  "{p0:String}' OR 1=1 --",
  '\\',
  "\\'",
  '\\\\x00',
  '%00',
  '%',
  '%zz',
  '%ED%A0%80',
  '%C0%80',
  '1) UNION ALL SELECT name FROM system.tables --',
  "') SETTINGS max_threads=1000 --",
  '$1',
  '?',
  '`',
  '/*',
  '../../etc/passwd',
  '${jndi:ldap://127.0.0.1/x}',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '[]',
  '{}',
  '["a"',
  '{"',
  'true',
  '',
  ' ',
];

/** Numbers as JSON source text: beyond doubles, beyond 64 bits, negative zero, long digit runs. */
export const NUMBER_TEXTS = [
  '1e400',
  '-1e400',
  '1e-400',
  '18446744073709551616',
  '18446744073709551615',
  '-9223372036854775809',
  '9223372036854775808',
  '9007199254740993',
  '-0',
  '-0.0',
  '0e0',
  '1.7976931348623157e308',
  '5e-324',
  '4294967296',
  '-1',
  '0',
  '1795537406',
  '1795537406000',
  '1795537406.123456789',
  '1' + '0'.repeat(400),
  '9'.repeat(5000),
  '0.' + '1'.repeat(2000),
  '1E+99999999999999',
];

export const numberText = fc.oneof(
  fc.constantFrom(...NUMBER_TEXTS),
  fc.double().map((n) => JSON.stringify(n) ?? 'null'),
  fc.bigInt().map(String),
);

/** Any code point including lone surrogates, NUL and control characters. */
const anyText = fc.string({ unit: 'binary', maxLength: 40 });

/** A JSON string literal: escapes (lone surrogates, NUL), raw control characters, or very long. */
export const stringText = fc.oneof(
  { weight: 4, arbitrary: anyText.map((s) => JSON.stringify(s)) },
  { weight: 3, arbitrary: fc.constantFrom(...INJECTIONS).map((s) => JSON.stringify(s)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '"\\ud800"',
      '"\\udfff"',
      '"a\\udc00b"',
      '"\\ud800\\ud800"',
      '"\\u0000"',
      '"\u0000"',
      '"\\ud83d"',
      '"\\uDBFF\\uDFFF"',
      '"\\x41"',
      '"\\u12"',
      '"\t\n"',
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('a', '\\u0000', '\\ud800', 'é', '😀', "'"), fc.integer({ min: 200, max: 3_000 }))
      .map(([unit, n]) => `"${unit.repeat(n)}"`),
  },
);

/** A string of 0.1 to 1.5 MB as a JSON literal: beyond every field and row limit, near the body limit. */
export const hugeStringText = fc
  .tuple(fc.constantFrom('a', '\\u0000', '\\ud800', 'é', '😀', '\\"'), fc.integer({ min: 100_000, max: 1_500_000 }))
  .map(([unit, bytes]) => `"${unit.repeat(Math.ceil(bytes / Buffer.byteLength(unit)))}"`);

/** Keys that reach prototype lookups, the API's own names, and hostile text. */
export const keyText = fc.oneof(
  fc
    .constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      '$insert_id',
      'event',
      'properties',
      'time',
      'distinct_id',
      'token',
      '$token',
      '$set',
      '$distinct_id',
      '$group_key',
      '$group_id',
      'data',
      'name',
      '$ignore',
      '$user_id',
      '$device_id',
      'schemaJson',
    )
    .map((k) => JSON.stringify(k)),
  stringText,
);

/** Arbitrary JSON text, possibly broken: shallow trees of hostile leaves. */
export const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 3, withCrossShrink: true },
    numberText,
    stringText,
    fc.constantFrom('null', 'true', 'false', '[]', '{}', '[null]', 'NaN', 'undefined', "'x'", ''),
    fc.array(tie('value'), { maxLength: 5 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(fc.tuple(keyText, tie('value')), { maxLength: 5 })
      .map((pairs) => `{${pairs.map(([k, v]) => `${k}:${v}`).join(',')}}`),
  ),
})).value;

/** Thousands of levels of nesting, balanced or not. */
export const deepText = fc
  .tuple(fc.integer({ min: 65, max: 60_000 }), fc.constantFrom('array', 'object', 'mixed', 'open'), fc.boolean())
  .map(([depth, shape, inEvent]) => {
    const open = shape === 'array' ? '[' : shape === 'object' ? '{"a":' : shape === 'mixed' ? '[{"a":' : '[';
    const close = shape === 'array' ? ']' : shape === 'object' ? '}' : shape === 'mixed' ? '}]' : '';
    const text = open.repeat(depth) + (shape === 'array' || shape === 'open' ? '' : '1') + close.repeat(depth);
    return inEvent ? `[{"event":"deep","properties":{"distinct_id":"d","$insert_id":"deep-1","p":${text}}}]` : text;
  });

/** Valid JSON broken at one point: cut short, a byte flipped, garbage inserted. */
export function corrupt(text: string): fc.Arbitrary<string> {
  const at = fc.nat({ max: Math.max(0, text.length) });
  return fc.oneof(
    at.map((i) => text.slice(0, i)),
    fc
      .tuple(at, fc.constantFrom('"', ',', '}', ']', '{', '[', '\\', '\u0000', ':', '\ud800', '\n'))
      .map(([i, c]) => text.slice(0, i) + c + text.slice(i)),
    fc.tuple(at, fc.nat({ max: 20 })).map(([i, n]) => text.slice(0, i) + text.slice(i + n)),
    fc.constant(`${text},`),
    fc.constant(`${text}${text}`),
    fc.constant(`\ufeff${text}`),
  );
}

/** The body of an `Authorization` header: not base64, no colon, empty parts, 10 KB, other schemes. */
export const authorizationHeader = fc.oneof(
  fc.constantFrom(
    'Basic',
    'Basic ',
    'Basic !!!!',
    'Basic ====',
    'Basic Og==',
    'Basic OjpfOjo=',
    'basic   YTpi',
    'BASIC YTpi',
    'Bearer',
    'Bearer ',
    'Bearer x.y.z',
    'Digest username="a"',
    'Basic YQ',
    'Basic YTpi===',
    'Basic YTpi YTpi',
    'Basic\tYTpi',
    'Negotiate TlRMTVNTUAAB',
    '',
  ),
  fc.string({ unit: 'grapheme-ascii', maxLength: 64 }).map((s) => `Basic ${Buffer.from(s).toString('base64')}`),
  fc.string({ unit: 'grapheme-ascii', maxLength: 64 }).map((s) => `Basic ${s}`),
  fc.constantFrom(...INJECTIONS).map((s) => `Basic ${Buffer.from(`${s}:${s}`).toString('base64')}`),
  fc.integer({ min: 1_000, max: 12_000 }).map((n) => `Basic ${'QUFB'.repeat(Math.ceil(n / 4))}`),
  fc.integer({ min: 1_000, max: 12_000 }).map(
    (n) =>
      `Basic ${Buffer.from(`${'a'.repeat(n)}:`)
        .toString('base64')
        .slice(0, n)}`,
  ),
  fc.integer({ min: 1_000, max: 12_000 }).map((n) => `Bearer ${'x'.repeat(n)}`),
  fc.uint8Array({ maxLength: 48 }).map((b) => `Basic ${Buffer.from(b).toString('base64')}`),
  fc.uint8Array({ maxLength: 48 }).map(
    (b) =>
      `Basic ${Buffer.from(b)
        .toString('latin1')
        .replace(/[\0-\x1f\x7f]/g, '')}`,
  ),
);

/** A value for a query parameter (sent percent-encoded, or raw where marked). */
export const queryValue = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...INJECTIONS).map((s) => ({ text: s, raw: /^%/.test(s) })) },
  { weight: 2, arbitrary: numberText.map((text) => ({ text, raw: false })) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }).map((text) => ({ text, raw: false })) },
  { weight: 2, arbitrary: jsonText.map((text) => ({ text, raw: false })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        '%ED%A0%80',
        '%ff%fe',
        '%00',
        '%',
        '%2',
        '%%',
        '%u0000',
        '%C3',
        '%E2%82',
        '%F4%90%80%80',
        '%0d%0a',
        '+',
        '&&&',
        '==',
      )
      .map((text) => ({ text, raw: true })),
  },
  // Long, but mostly within the 16 KB of request line and headers once percent-encoded.
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 5_000 }).map((n) => ({ text: "'".repeat(n), raw: false })) },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 100, max: 4_000 })
      .map((n) => ({ text: `${'('.repeat(n)}1${')'.repeat(n)}`, raw: true })),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 50, max: 400 })
      .map((n) => ({ text: encodeURIComponent(Array(n).fill('properties["a"] == 1').join(' and ')), raw: true })),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 50, max: 3_000 }).map((n) => ({ text: `${'not+'.repeat(n)}true`, raw: true })),
  },
);

/** Percent-encodes a value unless it is meant to reach the server raw; lone surrogates become CESU-8 escapes. */
export function encodeQueryValue({ text, raw }: { text: string; raw: boolean }): string {
  if (raw) return text;
  try {
    return encodeURIComponent(text);
  } catch {
    // URIError: a lone surrogate; below, each is written as the three bytes of its CESU-8 form.
  }
  return text.replace(/[\s\S]/gu, (c) => {
    const code = c.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff)
      return `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
    return encodeURIComponent(c);
  });
}

/** Percent-encoding that survives lone surrogates (encodeURIComponent throws on them). */
export const percent = (text: string) => encodeQueryValue({ text, raw: false });
