import { storedEventsSql } from '@analytics/event-store';
import { chCompiled, chIdent, chSql, ProjectScope, renderChSql } from '@analytics/tenancy';
import { BoundQuery } from '../clickhouse/query-runner';
import { seriesKeySql } from '../clickhouse/series-sql';
import { rangeParams, wallMsSql } from '../clickhouse/wall-time-sql';
import { eventsWithProfilesSql } from '../clickhouse/events-with-profiles-sql';
import {
  EventExpression,
  keepsEvent,
  numberOfEvent,
  numberOrZeroSql,
  readsProfiles,
  whereSql,
} from '../expressions/query-expressions';
import { QueryEvent } from '../reference/query-event';
import { segmentationKey, SeriesUnit, seriesKeyOf, seriesKeys } from '../time/series';
import { TimeZone } from '../time/time-zone';

/** /segmentation/sum and /segmentation/average: an expression summed or averaged per period; not a number counts as 0. */
export interface NumericSeriesSpec {
  event: string;
  fromDay: number;
  toDay: number;
  zone: TimeZone;
  unit: SeriesUnit;
  on: EventExpression;
  where?: EventExpression;
}

export interface NumericSeriesRow {
  key: number;
  total: number;
  events: number;
}

/** Whether the series reads profiles, so its events need their ids resolved (numericSeriesSql's `resolve`). */
export const numericSeriesReadsProfiles = (spec: NumericSeriesSpec) => readsProfiles([spec.where, spec.on]);

/** `resolve`: whether to resolve ids through identity_map, read only when a profile property is (the sum reads no user). */
export function numericSeriesSql(scope: ProjectScope, spec: NumericSeriesSpec, resolve = true): BoundQuery {
  const sources = { profiles: numericSeriesReadsProfiles(spec) };
  const where = spec.where ? whereSql(spec.where, 'w', sources) : { sql: '1', params: {} };
  const value = numberOrZeroSql(spec.on, 'on', sources);
  const inRange = chSql`event = {event:String}
      AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC') AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')`;
  const events = sources.profiles ? eventsWithProfilesSql(scope, resolve, inRange).events : storedEventsSql(scope);
  const sql = chSql`SELECT ${chCompiled(seriesKeySql(wallMsSql('toUnixTimestamp64Milli(time)', spec.zone), spec.unit))} AS key, sum(${chCompiled(value.sql, value.params)}) AS total, count() AS events
    FROM ${events}
    WHERE ${scope} AND ${inRange} AND ${chCompiled(where.sql, where.params)}
    GROUP BY key`;
  return renderChSql(sql, {
    params: { event: spec.event, ...rangeParams(spec) },
  });
}

/** Every period of the range, 0 where there was no event. */
export function numericSeriesResults(
  spec: NumericSeriesSpec,
  rows: readonly NumericSeriesRow[],
  average: boolean,
): Record<string, number> {
  const byKey = new Map(rows.map((row) => [Number(row.key), row]));
  return Object.fromEntries(
    seriesKeys(spec.fromDay, spec.toDay, spec.unit, spec.zone).map((key) => {
      const row = byKey.get(key);
      const value = !row ? 0 : average ? Number(row.total) / Number(row.events) : Number(row.total);
      return [segmentationKey(key, spec.unit), value];
    }),
  );
}

/** The reference twin, for the tests. */
export function referenceNumericSeries(events: readonly QueryEvent[], spec: NumericSeriesSpec): NumericSeriesRow[] {
  const rows = new Map<number, NumericSeriesRow>();
  const { fromMs, toEndMs } = spec.zone.rangeMs(spec.fromDay, spec.toDay);
  for (const event of events) {
    if (
      event.event !== spec.event ||
      event.timeMs < fromMs ||
      event.timeMs >= toEndMs ||
      !keepsEvent([spec.where], event)
    )
      continue;
    const key = seriesKeyOf(spec.zone.wallMs(event.timeMs), spec.unit);
    const row = rows.get(key) ?? { key, total: 0, events: 0 };
    row.total += numberOfEvent(spec.on, event) ?? 0;
    row.events += 1;
    rows.set(key, row);
  }
  return [...rows.values()];
}
