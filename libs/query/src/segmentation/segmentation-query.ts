import { optionalEventExpression, parseEventExpression, propertyExpression } from '../expressions/query-expressions';
import { DayRange, dayRange, MAX_RANGE_DAYS, QueryParams } from '../http/query-params';
import { invalidParameter } from '../query-error';
import { SERIES_UNITS, SeriesUnit } from '../time/series';
import { addMonths, DAY_MS, dayOf, firstOfMonth, HOUR_MS, mondayOf } from '../time/utc-days';
import { NumericSeriesSpec } from './numeric-sum';
import {
  DEFAULT_SEGMENTATION_LIMIT,
  MAX_SEGMENTATION_LIMIT,
  SEGMENTATION_TYPES,
  SegmentationSpec,
} from './segmentation-spec';

/** Hourly series are capped at this many days (24 keys each). */
const MAX_HOURLY_DAYS = 31;

function seriesUnit(params: QueryParams): SeriesUnit {
  if (params.text('unit') === 'minute')
    throw invalidParameter('unit minute is not supported: use hour, day, week or month');
  return params.oneOf('unit', SERIES_UNITS) ?? 'day';
}

function checkSeriesSize(range: DayRange, unit: SeriesUnit): DayRange {
  if (unit === 'hour' && range.toDay - range.fromDay >= MAX_HOURLY_DAYS)
    throw invalidParameter(`hourly series span at most ${MAX_HOURLY_DAYS} days`);
  return range;
}

/** `interval` N with `unit`: the last N periods up to now (the current one included), on the project's clocks. */
function lastPeriods(params: QueryParams, unit: SeriesUnit, nowMs: number): DayRange {
  if (params.text('from_date') !== undefined || params.text('to_date') !== undefined) return dayRange(params);
  const count = params.integer('interval', 1, MAX_RANGE_DAYS) ?? 1;
  const { zone } = params;
  const toDay = zone.dayOf(nowMs);
  const from = (fromDay: number) => ({ fromDay, toDay, zone });
  switch (unit) {
    case 'hour':
      return from(dayOf(zone.wallMs(nowMs) - (count - 1) * HOUR_MS));
    case 'day':
      return from(toDay - count + 1);
    case 'week':
      return from(mondayOf(toDay) - 7 * (count - 1));
    case 'month':
      return from(dayOf(addMonths(firstOfMonth(toDay) * DAY_MS, -(count - 1))));
  }
}

const type = (params: QueryParams) => params.oneOf('type', SEGMENTATION_TYPES) ?? 'general';

/** GET /segmentation: one event, optionally segmented by `on`. */
export function parseSegmentationQuery(params: QueryParams): SegmentationSpec {
  const unit = seriesUnit(params);
  const on = optionalEventExpression('on', params.text('on'));
  return {
    events: [params.requiredText('event')],
    ...checkSeriesSize(dayRange(params), unit),
    unit,
    type: type(params),
    where: optionalEventExpression('where', params.text('where')),
    on,
    limit: on ? (params.integer('limit', 1, MAX_SEGMENTATION_LIMIT) ?? DEFAULT_SEGMENTATION_LIMIT) : 1,
  };
}

/** GET /segmentation/numeric: `on` is a number, bucketed into round ranges. */
export function parseNumericBucketsQuery(params: QueryParams): SegmentationSpec {
  const unit = seriesUnit(params);
  return {
    events: [params.requiredText('event')],
    ...checkSeriesSize(dayRange(params), unit),
    unit,
    type: type(params),
    where: optionalEventExpression('where', params.text('where')),
    on: parseEventExpression('on', params.requiredText('on')),
    limit: MAX_SEGMENTATION_LIMIT,
  };
}

/** GET /segmentation/sum and /segmentation/average: `on` is the number to add up. */
export function parseNumericSeriesQuery(params: QueryParams): NumericSeriesSpec {
  const unit = seriesUnit(params);
  return {
    event: params.requiredText('event'),
    ...checkSeriesSize(dayRange(params), unit),
    unit,
    on: parseEventExpression('on', params.requiredText('on')),
    where: optionalEventExpression('where', params.text('where')),
  };
}

/** GET /events: several events (a JSON array), each its own series. */
export function parseEventsQuery(params: QueryParams, nowMs: number): SegmentationSpec {
  const events = params.stringArray('event');
  if (!events?.length) throw invalidParameter('event is required: a JSON array of event names');
  const unit = seriesUnit(params);
  return {
    events: [...new Set(events)],
    ...checkSeriesSize(lastPeriods(params, unit, nowMs), unit),
    unit,
    type: type(params),
    limit: events.length,
  };
}

/** GET /events/properties: one event segmented by the property `name`, optionally only some `values`. */
export function parseEventPropertiesQuery(params: QueryParams, nowMs: number): SegmentationSpec {
  const unit = seriesUnit(params);
  return {
    events: [params.requiredText('event')],
    ...checkSeriesSize(lastPeriods(params, unit, nowMs), unit),
    unit,
    type: type(params),
    on: propertyExpression('name', params.requiredText('name')),
    values: params.stringArray('values'),
    limit: params.integer('limit', 1, MAX_SEGMENTATION_LIMIT) ?? 255,
  };
}
