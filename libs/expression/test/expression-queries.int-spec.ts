import fc from 'fast-check';
import {
  compileSegment,
  compileWhere,
  eventRow,
  eventsScope,
  JsonObject,
  keepsRow,
  parseExpression,
  profilesScope,
  segmentKey,
  toPropertiesJson,
} from '@analytics/expression';
import { ExpressionRow, profileRow } from '../src/expression-row';
import { compareCodePoints } from '../src/semantics';
import { eventArbitrary, GeneratedEvent } from '../src/testing/event-arbitraries';
import { EventsTable, GeneratedProfile, TEST_PROFILES_TABLE, TEST_TABLE } from './support/events-table';

/**
 * Compiled expressions as callers use them: beside the query's own parameters, several in one
 * query, over an events table joined to profiles (qualified columns), as GROUP BY segments, and
 * in the profile query.
 */
const EVENTS: GeneratedEvent[] = fc
  .sample(eventArbitrary, { numRuns: 200, seed: 8 })
  .map((event) => ({ ...event, user: undefined }));
const PROFILES: GeneratedProfile[] = ['u1', 'u2', 'a'].map((distinctId, i) => ({
  distinctId,
  properties: EVENTS[i].properties,
}));
const JOINED = eventsScope({ table: 'e', userPropertiesJson: 'p.properties' });
const FROM_EVENTS = `${TEST_TABLE} AS e LEFT JOIN ${TEST_PROFILES_TABLE} AS p ON p.distinct_id = e.distinct_id`;

function eventRowOf(event: GeneratedEvent): ExpressionRow {
  const profile = PROFILES.find((candidate) => candidate.distinctId === event.distinctId);
  const read = (object: JsonObject) => JSON.parse(toPropertiesJson(object)) as JsonObject;
  return eventRow(
    {
      event: 'generated',
      timeMs: event.timeMs,
      properties: { ...read(event.properties), distinct_id: event.distinctId, $insert_id: event.insertId },
    },
    profile && read(profile.properties),
  );
}

describe('compiled expressions in queries', () => {
  let table: EventsTable;
  const rows = EVENTS.map(eventRowOf);

  beforeAll(async () => {
    table = await EventsTable.create(EVENTS, PROFILES);
  });

  afterAll(() => table?.close());

  it('filter joined events beside the query’s own parameters and each other', async () => {
    const keep = parseExpression('properties["n"] > 0 or user["s"] == "a" or defined(user["b"])');
    const drop = parseExpression('properties["s"] in ["a", "b", "ab"] or event["$time"] < datetime("2000-01-01")');
    const a = compileWhere(keep, JOINED, { prefix: 'a' });
    const b = compileWhere(drop, JOINED, { prefix: 'b' });
    const found = await table.query<{ id: number }>(
      `SELECT e.id AS id FROM ${FROM_EVENTS} WHERE e.event = {event:String} AND ${a.sql} AND NOT ${b.sql} ORDER BY id`,
      { event: 'generated', ...a.params, ...b.params },
    );
    const expected = rows.flatMap((row, id) => (keepsRow(keep, row) && !keepsRow(drop, row) ? [id] : []));
    expect(expected.length).toBeGreaterThan(0);
    expect(found.map((row) => row.id)).toEqual(expected);
  });

  it('segment with `on` in SELECT and GROUP BY, under a `where`', async () => {
    const on = parseExpression('properties["b"]');
    const where = parseExpression('defined(properties["n"]) and not defined(user["zz"])');
    const segment = compileSegment(on, JOINED, { prefix: 'on' });
    const filter = compileWhere(where, JOINED, { prefix: 'where' });
    const found = await table.query<{ segment: string; events: number }>(
      `SELECT ${segment.sql} AS segment, toUInt32(count()) AS events FROM ${FROM_EVENTS} ` +
        `WHERE ${filter.sql} AND isNotNull(segment) GROUP BY segment ORDER BY segment`,
      { ...segment.params, ...filter.params },
    );
    const counts = new Map<string, number>();
    for (const row of rows) {
      const key = segmentKey(on, row);
      if (key !== undefined && keepsRow(where, row)) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const expected = [...counts]
      .sort(([x], [y]) => compareCodePoints(x, y))
      .map(([key, events]) => ({ segment: key, events }));
    expect(expected.length).toBeGreaterThan(1);
    expect(found).toEqual(expected);
  });

  it('segment with an `on` that is never a string: a typed NULL key that callers can unwrap, no rows', async () => {
    // A list, an object or a missing property: `string()` of it is undefined on every row.
    for (const text of ['[" "]', '[1, 2]', 'properties["never set"]']) {
      const segment = compileSegment(text, JOINED, { prefix: 'on' });
      const found = await table.query<{ segment: string }>(
        `SELECT assumeNotNull(${segment.sql}) AS segment FROM ${FROM_EVENTS} WHERE isNotNull(${segment.sql}) GROUP BY segment`,
        segment.params,
      );
      expect({ text, found }).toEqual({ text, found: [] });
    }
  });

  it('may use the same compiled expression twice in one query', async () => {
    const where = compileWhere('number(properties["num"]) >= 1 or properties["iso"] > "2024"', JOINED, { prefix: 'w' });
    const found = await table.query<{ id: number; kept: number }>(
      `SELECT e.id AS id, ${where.sql} AS kept FROM ${FROM_EVENTS} WHERE ${where.sql} ORDER BY id`,
      where.params,
    );
    const tree = parseExpression('number(properties["num"]) >= 1 or properties["iso"] > "2024"');
    expect(found.length).toBeGreaterThan(0);
    expect(found).toEqual(rows.flatMap((row, id) => (keepsRow(tree, row) ? [{ id, kept: 1 }] : [])));
  });

  it('filter profiles in the profile query', async () => {
    const where = parseExpression('properties["n"] != null and user["s"] != "b"');
    const compiled = compileWhere(where, profilesScope(), { prefix: 'w' });
    const found = await table.query<{ distinct_id: string }>(
      `SELECT distinct_id FROM ${TEST_PROFILES_TABLE} WHERE ${compiled.sql} ORDER BY distinct_id`,
      compiled.params,
    );
    const expected = PROFILES.filter((profile) =>
      keepsRow(
        where,
        profileRow({
          $distinct_id: profile.distinctId,
          properties: JSON.parse(toPropertiesJson(profile.properties)) as JsonObject,
        }),
      ),
    ).map((profile) => ({ distinct_id: profile.distinctId }));
    expect(expected.length).toBeGreaterThan(0);
    expect(found).toEqual(expected.sort((x, y) => compareCodePoints(x.distinct_id, y.distinct_id)));
  });
});
