import {
  checkFunnelWindow,
  FunnelDefinition,
  funnelWindowMs,
  LENGTH_UNITS,
  LengthUnit,
} from '@analytics/report-definitions';
import { EventExpression, optionalEventExpression } from '../expressions/query-expressions';
import { dateBuckets, dayRange, QueryParams } from '../http/query-params';
import { DateBuckets } from '../time/buckets';
import { TimeZone } from '../time/time-zone';

export const DEFAULT_FUNNEL_LIMIT = 255;
export const MAX_FUNNEL_LIMIT = 10_000;

/** `GET /funnels`'s parameters beyond the saved funnel. */
export interface FunnelQuery {
  funnelId: number;
  fromDay: number;
  toDay: number;
  zone: TimeZone;
  length?: number;
  lengthUnit?: LengthUnit;
  buckets: DateBuckets;
  where?: EventExpression;
  on?: EventExpression;
  limit: number;
}

export function parseFunnelQuery(params: QueryParams): FunnelQuery {
  return { funnelId: params.requiredInteger('funnel_id', 1, 2 ** 31 - 1), ...parseFunnelRun(params) };
}

/** The parameters that apply to any funnel, saved or sent unsaved (`params`): dates, overrides, segments. */
export function parseFunnelRun(params: QueryParams): Omit<FunnelQuery, 'funnelId'> {
  return {
    ...dayRange(params),
    length: params.integer('length', 1, 90 * 86_400),
    lengthUnit: params.oneOf('length_unit', LENGTH_UNITS),
    buckets: dateBuckets(params),
    where: optionalEventExpression('where', params.text('where')),
    on: optionalEventExpression('on', params.text('on')),
    limit: params.integer('limit', 1, MAX_FUNNEL_LIMIT) ?? DEFAULT_FUNNEL_LIMIT,
  };
}

export interface FunnelSpecStep {
  event: string;
  label?: string;
  where?: EventExpression;
}

/** Everything a funnel computation needs: the saved definition with the query's overrides applied. */
export interface FunnelSpec {
  steps: FunnelSpecStep[];
  /** The saved `where` and the query's `where`: every step's events must pass both. */
  filters: EventExpression[];
  windowMs: number;
  /**
   * A window in days counts the zone's calendar days: it ends at the same time on the clocks that
   * many days later, 23 or 25 hours a day across a daylight-saving change (`windowEndMs`).
   */
  calendarWindow: boolean;
  fromDay: number;
  toDay: number;
  zone: TimeZone;
  buckets: DateBuckets;
  on?: EventExpression;
  limit: number;
}

/** The query's length and length_unit override the saved ones one by one. */
export function funnelSpec(definition: FunnelDefinition, query: Omit<FunnelQuery, 'funnelId'>): FunnelSpec {
  const length = query.length ?? definition.length;
  const unit = query.lengthUnit ?? definition.length_unit;
  checkFunnelWindow(length, unit);
  return {
    steps: definition.steps.map((step, i) => ({
      event: step.event,
      label: step.label,
      where: optionalEventExpression(`steps[${i}].where`, step.where),
    })),
    filters: [optionalEventExpression('saved where', definition.where), query.where].filter(
      (e): e is EventExpression => e !== undefined,
    ),
    windowMs: funnelWindowMs(length, unit),
    calendarWindow: unit === 'day' && !query.zone.isUtc,
    fromDay: query.fromDay,
    toDay: query.toDay,
    zone: query.zone,
    buckets: query.buckets,
    on: query.on,
    limit: query.limit,
  };
}

/**
 * The last instant a step may take for an attempt starting at `startMs`: `windowMs` later, and for a
 * window in days corrected by the change of the zone's offset over it (the offset read at the start
 * and at `startMs + windowMs`), so that it ends at the same time on the clocks. The SQL's twin is
 * `windowEndSql`.
 */
export function windowEndMs(spec: FunnelSpec, startMs: number): number {
  const plain = startMs + spec.windowMs;
  return spec.calendarWindow ? plain + spec.zone.offsetMs(startMs) - spec.zone.offsetMs(plain) : plain;
}
