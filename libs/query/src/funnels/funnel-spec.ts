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

export const DEFAULT_FUNNEL_LIMIT = 255;
export const MAX_FUNNEL_LIMIT = 10_000;

/** `GET /funnels`'s parameters beyond the saved funnel. */
export interface FunnelQuery {
  funnelId: number;
  fromDay: number;
  toDay: number;
  length?: number;
  lengthUnit?: LengthUnit;
  buckets: DateBuckets;
  where?: EventExpression;
  on?: EventExpression;
  limit: number;
}

export function parseFunnelQuery(params: QueryParams): FunnelQuery {
  return {
    funnelId: params.requiredInteger('funnel_id', 1, 2 ** 31 - 1),
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
  fromDay: number;
  toDay: number;
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
    fromDay: query.fromDay,
    toDay: query.toDay,
    buckets: query.buckets,
    on: query.on,
    limit: query.limit,
  };
}
