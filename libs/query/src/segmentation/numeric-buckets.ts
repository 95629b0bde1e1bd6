import { resolvedEventsSql } from '@analytics/event-store';
import { chCompiled, chSql, ChSql, ProjectScope, renderChSql } from '@analytics/tenancy';
import { BoundQuery } from '../clickhouse/query-runner';
import { seriesKeySql } from '../clickhouse/series-sql';
import { rangeParams, wallMsSql } from '../clickhouse/wall-time-sql';
import { eventsWithProfilesSql } from '../clickhouse/events-with-profiles-sql';
import {
  isNumberSql,
  keepsEvent,
  numberOfEvent,
  numberOrZeroSql,
  readsProfiles,
  whereSql,
} from '../expressions/query-expressions';
import { QueryEvent } from '../reference/query-event';
import { seriesKeyOf } from '../time/series';
import { SegmentationSpec } from './segmentation-spec';
import { SegmentationCell } from './segmentation-tally';

/**
 * /segmentation/numeric: the numbers `on` takes (other values left out) fall into about ten ranges
 * of a round width (1, 2 or 5 times a power of ten) over their minimum and maximum in the range;
 * each range, labelled like `2,000 - 2,100`, is a series.
 */
export const NUMERIC_BUCKETS = 10;

export function roundWidth(min: number, max: number): number {
  const raw = (max - min) / NUMERIC_BUCKETS;
  if (!(raw > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((width) => width >= raw)!;
}

const format = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 12 });

export function rangeLabel(slot: number, width: number): string {
  return `${format(slot * width)} - ${format((slot + 1) * width)}`;
}

function numbersSql(scope: ProjectScope, spec: SegmentationSpec, resolve: boolean): ChSql {
  const sources = { profiles: readsProfiles([spec.where, spec.on]) };
  const where = spec.where ? whereSql(spec.where, 'w', sources) : { sql: '1', params: {} };
  const value = numberOrZeroSql(spec.on!, 'on', sources);
  const isNumber = isNumberSql(spec.on!, 'onn', sources);
  const inRange = chSql`event IN {events:Array(String)}
        AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC') AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')`;
  const events = sources.profiles
    ? eventsWithProfilesSql(scope, resolve, inRange).events
    : resolvedEventsSql(scope, resolve);
  return chSql`(SELECT distinct_id, ${chCompiled(seriesKeySql(wallMsSql('toUnixTimestamp64Milli(time)', spec.zone), spec.unit))} AS key, ${chCompiled(value.sql, value.params)} AS v
      FROM ${events}
      WHERE ${scope} AND ${inRange}
        AND ${chCompiled(where.sql, where.params)} AND ${chCompiled(isNumber.sql, isNumber.params)})`;
}

const numbersParams = (spec: SegmentationSpec) => ({
  events: spec.events,
  ...rangeParams(spec),
});

/** The smallest and largest number, or nothing when there is none. */
export function numericRangeSql(scope: ProjectScope, spec: SegmentationSpec, resolve = true): BoundQuery {
  return renderChSql(
    chSql`SELECT min(v) AS low, max(v) AS high, count() AS n FROM ${numbersSql(scope, spec, resolve)}`,
    { params: numbersParams(spec) },
  );
}

export function numericSlotsSql(
  scope: ProjectScope,
  spec: SegmentationSpec,
  width: number,
  resolve = true,
): BoundQuery {
  const numbers = numbersSql(scope, spec, resolve);
  return renderChSql(
    chSql`SELECT key, toInt64(floor(v / {width:Float64})) AS slot, count() AS events, uniqExact(distinct_id) AS users FROM ${numbers} GROUP BY key, slot`,
    {
      params: { ...numbersParams(spec), width: String(width) },
    },
  );
}

export interface NumericSlotRow {
  key: number;
  slot: number;
  events: number;
  users: number;
}

/** Cells per range and the ranges in ascending order. */
export function numericCells(
  rows: readonly NumericSlotRow[],
  width: number,
): { cells: SegmentationCell[]; ranked: string[] } {
  const slots = [...new Set(rows.map((row) => Number(row.slot)))].sort((a, b) => a - b);
  return {
    cells: rows.map((row) => ({
      key: Number(row.key),
      series: rangeLabel(Number(row.slot), width),
      events: Number(row.events),
      users: Number(row.users),
    })),
    ranked: slots.map((slot) => rangeLabel(slot, width)),
  };
}

/** The reference twin, for the tests. */
export function referenceNumericBuckets(
  events: readonly QueryEvent[],
  spec: SegmentationSpec,
): { cells: SegmentationCell[]; ranked: string[] } {
  const { fromMs, toEndMs } = spec.zone.rangeMs(spec.fromDay, spec.toDay);
  const numbers = events
    .filter(
      (e) => spec.events.includes(e.event) && e.timeMs >= fromMs && e.timeMs < toEndMs && keepsEvent([spec.where], e),
    )
    .map((e) => ({ e, v: numberOfEvent(spec.on!, e) }))
    .filter((x): x is { e: QueryEvent; v: number } => x.v !== undefined);
  if (!numbers.length) return { cells: [], ranked: [] };
  const width = roundWidth(Math.min(...numbers.map((x) => x.v)), Math.max(...numbers.map((x) => x.v)));
  const cells = new Map<string, { key: number; slot: number; events: number; users: Set<string> }>();
  for (const { e, v } of numbers) {
    const key = seriesKeyOf(spec.zone.wallMs(e.timeMs), spec.unit);
    const slot = Math.floor(v / width);
    const cell = cells.get(`${slot}|${key}`) ?? { key, slot, events: 0, users: new Set<string>() };
    cell.events += 1;
    cell.users.add(e.distinctId);
    cells.set(`${slot}|${key}`, cell);
  }
  return numericCells(
    [...cells.values()].map((c) => ({ key: c.key, slot: c.slot, events: c.events, users: c.users.size })),
    width,
  );
}
