import fc from 'fast-check';
import { gzipSync } from 'node:zlib';
import {
  corrupt,
  deepText,
  hugeStringText,
  jsonText,
  keyText,
  numberText,
  percent,
  stringText,
} from './hostile-values';

/** A request body as sent: bytes and the headers that describe them. */
export interface Body {
  label: string;
  bytes: Buffer;
  contentType?: string;
  contentEncoding?: string;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const sane = <T>(hostile: fc.Arbitrary<T>, fallback: T) =>
  fc.oneof({ weight: 2, arbitrary: fc.constant(fallback) }, { weight: 1, arbitrary: hostile });

/** An event whose fields are each either sane or hostile: the rules must refuse it, never fail on it. */
export const eventText = (token: string) =>
  fc
    .record({
      event: sane(fc.oneof(stringText, numberText, jsonText), '"fuzz_hostile"'),
      distinct: sane(fc.oneof(stringText, numberText, jsonText), '"h-1"'),
      time: sane(fc.oneof(numberText, stringText, jsonText), 'NOW'),
      insertId: sane(fc.oneof(stringText, numberText, jsonText), '"h-insert-1"'),
      token: sane(fc.oneof(stringText, jsonText), JSON.stringify(token)),
      extra: fc.array(fc.tuple(keyText, jsonText), { maxLength: 4 }),
      properties: fc.option(jsonText, { freq: 6 }),
    })
    .map(({ event, distinct, time, insertId, token: t, extra, properties }) => {
      const fields = [
        `"token":${t}`,
        `"distinct_id":${distinct}`,
        `"time":${time === 'NOW' ? nowSeconds() : time}`,
        `"$insert_id":${insertId}`,
        ...extra.map(([k, v]) => `${k}:${v}`),
      ];
      return `{"event":${event},"properties":${properties ?? `{${fields.join(',')}}`}}`;
    });

/** A profile or group update with hostile operations and values. */
export const profileText = (token: string) =>
  fc
    .record({
      op: fc.constantFrom(
        '$set',
        '$set_once',
        '$add',
        '$append',
        '$union',
        '$remove',
        '$unset',
        '$delete',
        '__proto__',
        'constructor',
        '$bogus',
      ),
      value: jsonText,
      id: sane(fc.oneof(stringText, numberText, jsonText), '"h-1"'),
      groupKey: sane(fc.oneof(stringText, jsonText), '"company"'),
      token: sane(fc.oneof(stringText, jsonText), JSON.stringify(token)),
    })
    .map(
      ({ op, value, id, groupKey, token: t }) =>
        `{"$token":${t},"$distinct_id":${id},"$group_key":${groupKey},"$group_id":${id},${JSON.stringify(op)}:${value}}`,
    );

/**
 * Many list operations on one profile, up to the body limit: each record's values are new, so the
 * stored list keeps growing (issue 34: a quadratic `$union` made one such request freeze the process).
 */
export function profileFloodText(token: string, records: number, values: number, op = '$union', seed = 0): string {
  const record = (r: number) =>
    `{"$token":${JSON.stringify(token)},"$distinct_id":"flood-${seed}","${op}":{"l":[${Array.from({ length: values }, (_, v) => seed * 1e7 + r * values + v).join(',')}]}}`;
  return `[${Array.from({ length: records }, (_, r) => record(r)).join(',')}]`;
}
export const profileFlood = (token: string): fc.Arbitrary<Body> =>
  fc
    .tuple(
      fc.integer({ min: 20, max: 400 }),
      fc.integer({ min: 50, max: 300 }),
      fc.constantFrom('$union', '$union', '$append', '$remove'),
      fc.nat({ max: 50 }),
    )
    .map(([records, values, op, seed]) => {
      const text = profileFloodText(token, records, values, op, seed);
      return {
        label: `profile-flood ${op}`,
        bytes: Buffer.from(text.length < 1_900_000 ? text : profileFloodText(token, 200, 200, op, seed)),
        contentType: 'application/json',
      };
    });

/** Whole JSON documents: lists of hostile records, hostile trees, deep nesting, huge strings, broken text. */
const documents = (record: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.array(record, { minLength: 1, maxLength: 6 }).map((items) => `[${items.join(',')}]`) },
    { weight: 2, arbitrary: record },
    { weight: 2, arbitrary: jsonText },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '[null]',
        'null',
        '[]',
        '{}',
        '[[]]',
        '[{}]',
        '""',
        '0',
        '[1]',
        '["a"]',
        '[true]',
        '{"__proto__":{"polluted":1}}',
        '{"constructor":{"prototype":{"polluted":1}}}',
        '[{"__proto__":null}]',
      ),
    },
    { weight: 1, arbitrary: deepText },
    {
      weight: 1,
      arbitrary: fc.array(record, { minLength: 1, maxLength: 3 }).chain((items) => corrupt(`[${items.join(',')}]`)),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 2_001, max: 3_000 })
        .map((n) => `[${Array(n).fill('{"event":"x","properties":{"distinct_id":"a"}}').join(',')}]`),
    },
  );

const CONTENT_TYPES = [
  'application/json',
  'application/x-ndjson',
  'application/x-www-form-urlencoded',
  'text/plain',
  'text/plain;charset=UTF-8',
  'application/json; charset=utf-16',
  'application/json; charset=bogus',
  'application/xml',
  'multipart/form-data; boundary=x',
  'multipart/form-data',
  'application/octet-stream',
  'image/gif',
  '*/*',
  'application/json, text/plain',
  '',
];
export const contentType = fc.constantFrom(...CONTENT_TYPES);

/** `data=` as the SDKs send it, base64 or JSON, or broken: not base64, bad padding, bad percent-encoding. */
export const formData = (json: fc.Arbitrary<string>) =>
  fc.oneof(
    json.map((text) => `data=${percent(Buffer.from(text).toString('base64'))}`),
    json.map((text) => `data=${percent(text)}`),
    json.map((text) => `data=${Buffer.from(text).toString('base64url')}`),
    json.map((text) => `data=${Buffer.from(text).toString('base64').replace(/=+$/, '')}&verbose=1`),
    fc.constantFrom(
      'data=!!!!',
      'data====',
      'data=YQ',
      'data=YQ===',
      'data=%ED%A0%80',
      'data=%E0%A4%A',
      'data=%',
      'data=',
      'data',
      'data=W251bGxd',
      'data=bnVsbA%3D%3D',
      'data=W3t9XQ==&data=W10=',
      'data[]=1',
      'data[__proto__]=1',
      '=',
      '&&&',
      'data=%00',
      'data=IA==',
    ),
    json.map(
      (text) =>
        `data=${percent(
          Buffer.from(text)
            .toString('base64')
            .replace(/(.{7})/g, '$1 \n'),
        )}`,
    ),
    fc
      .tuple(json, fc.nat({ max: 64 }))
      .map(([text, cut]) => `data=${percent(Buffer.from(text).toString('base64').slice(cut))}`),
  );

/** gzip bombs (far above the body limit once inflated) and corrupt or mislabelled gzip. */
let bombs: Buffer[] | undefined;
function gzipBombs(): Buffer[] {
  bombs ??= [
    gzipSync(Buffer.alloc(48 * 1024 * 1024), { level: 9 }),
    gzipSync(Buffer.from(`[${'{"event":"b","properties":{"distinct_id":"b"}},'.repeat(80_000)}{}]`), { level: 9 }),
    gzipSync(gzipSync(Buffer.alloc(24 * 1024 * 1024))),
  ];
  return bombs;
}
const gzipped = (text: fc.Arbitrary<string>) =>
  fc.oneof(
    fc.nat({ max: 2 }).map((i) => ({ bytes: gzipBombs()[i], label: 'gzip-bomb' })),
    fc.tuple(text, fc.nat(), fc.integer({ min: 1, max: 255 })).map(([t, at, x]) => {
      const bytes = Buffer.from(gzipSync(t));
      bytes[at % bytes.length] ^= x;
      return { bytes, label: 'gzip-corrupt' };
    }),
    fc.tuple(text, fc.nat()).map(([t, cut]) => {
      const bytes = gzipSync(t);
      return { bytes: bytes.subarray(0, cut % bytes.length), label: 'gzip-truncated' };
    }),
    text.map((t) => ({ bytes: Buffer.concat([gzipSync(t), Buffer.from('trailing garbage')]), label: 'gzip-trailing' })),
    text.map((t) => ({ bytes: Buffer.from(t), label: 'gzip-not-gzip' })),
    text.map((t) => ({ bytes: gzipSync(t), label: 'gzip-valid' })),
    fc.constant({ bytes: Buffer.alloc(0), label: 'gzip-empty' }),
  );

const ENCODINGS = [
  'gzip',
  'x-gzip',
  'deflate',
  'br',
  'zstd',
  'gzip, gzip',
  'GZIP',
  ' gzip ',
  'identity',
  'compress',
  'bogus',
];

/** Megabyte bodies cost both sides time: one draw in five of their share is one, the rest plain JSON. */
const rare = (big: fc.Arbitrary<Body>) =>
  fc.oneof(
    { weight: 1, arbitrary: big },
    {
      weight: 4,
      arbitrary: jsonText.map((t) => ({ label: 'json', bytes: Buffer.from(t), contentType: 'application/json' })),
    },
  );

/** Ingestion bodies for /import, /track, /engage and /groups, in every transport they accept and some they do not. */
export function ingestBody(record: fc.Arbitrary<string>): fc.Arbitrary<Body> {
  const json = documents(record);
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(json, fc.constantFrom('application/json', 'application/json', 'text/plain', undefined))
        .map(([t, ct]) => ({ label: 'json', bytes: Buffer.from(t), contentType: ct })),
    },
    {
      weight: 2,
      arbitrary: fc.array(fc.oneof(record, jsonText, fc.constant('')), { minLength: 1, maxLength: 6 }).map((lines) => ({
        label: 'ndjson',
        bytes: Buffer.from(lines.join('\n')),
        contentType: 'application/x-ndjson',
      })),
    },
    {
      weight: 4,
      arbitrary: fc
        .tuple(formData(json), fc.constantFrom('application/x-www-form-urlencoded', 'text/plain', undefined))
        .map(([t, ct]) => ({ label: 'form', bytes: Buffer.from(t), contentType: ct })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          gzipped(json),
          fc.constantFrom(...ENCODINGS),
          fc.constantFrom('application/json', 'application/x-ndjson', 'application/x-www-form-urlencoded'),
        )
        .map(([g, enc, ct]) => ({
          label: g.label,
          bytes: g.bytes,
          contentType: ct,
          contentEncoding: g.label === 'gzip-valid' || g.label === 'gzip-bomb' ? enc : 'gzip',
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(json, contentType)
        .map(([t, ct]) => ({ label: 'content-type', bytes: Buffer.from(t), contentType: ct })),
    },
    {
      weight: 1,
      arbitrary: rare(
        hugeStringText.map((s) => ({
          label: 'huge-string',
          bytes: Buffer.from(`[{"event":"huge","properties":{"distinct_id":"h","$insert_id":"huge-1","s":${s}}}]`),
          contentType: 'application/json',
        })),
      ),
    },
    { weight: 1, arbitrary: rare(oversize) },
  );
}

/** Bodies for the app and query APIs: hostile JSON, forms, deep nesting, huge strings, wrong types. */
export function apiBody(shaped: fc.Arbitrary<string>): fc.Arbitrary<Body> {
  const json = fc.oneof({ weight: 3, arbitrary: shaped }, { weight: 3, arbitrary: documents(jsonText) });
  return fc.oneof(
    {
      weight: 6,
      arbitrary: json.map((t) => ({ label: 'json', bytes: Buffer.from(t), contentType: 'application/json' })),
    },
    {
      weight: 1,
      arbitrary: fc.array(fc.tuple(keyText, jsonText), { maxLength: 5 }).map((pairs) => ({
        label: 'form',
        bytes: Buffer.from(pairs.map(([k, v]) => `${percent(JSON.parse(safe(k)))}=${percent(v)}`).join('&')),
        contentType: 'application/x-www-form-urlencoded',
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(json, contentType)
        .map(([t, ct]) => ({ label: 'content-type', bytes: Buffer.from(t), contentType: ct })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(gzipped(json), fc.constantFrom(...ENCODINGS))
        .map(([g, enc]) => ({ label: g.label, bytes: g.bytes, contentType: 'application/json', contentEncoding: enc })),
    },
    {
      weight: 1,
      arbitrary: rare(
        hugeStringText.map((s) => ({
          label: 'huge-string',
          bytes: Buffer.from(`{"name":${s},"description":${s.slice(0, 1000)}"}`),
          contentType: 'application/json',
        })),
      ),
    },
    { weight: 1, arbitrary: rare(oversize) },
  );
}

const safe = (k: string) => {
  try {
    JSON.parse(k);
    return k;
  } catch {
    return '"k"';
  }
};

/** Above every body limit (1 MB for the APIs, 2 MB after decompression for ingestion). */
const oversize: fc.Arbitrary<Body> = fc
  .tuple(
    fc.integer({ min: 2_100_000, max: 3_500_000 }),
    fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'application/x-ndjson'),
  )
  .map(([n, ct]) => ({
    label: 'oversize',
    bytes: Buffer.from(
      ct === 'application/x-www-form-urlencoded'
        ? `data=${'A'.repeat(n)}`
        : `[${'{"event":"o","properties":{"distinct_id":"o"}},'.repeat(Math.ceil(n / 46))}{}]`,
    ),
    contentType: ct,
  }));
