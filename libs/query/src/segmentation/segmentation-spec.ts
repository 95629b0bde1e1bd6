import { EventExpression } from '../expressions/query-expressions';
import { SeriesUnit } from '../time/series';
import { TimeZone } from '../time/time-zone';

export const SEGMENTATION_TYPES = ['general', 'unique', 'average'] as const;
export type SegmentationType = (typeof SEGMENTATION_TYPES)[number];

export const DEFAULT_SEGMENTATION_LIMIT = 60;
export const MAX_SEGMENTATION_LIMIT = 10_000;

/**
 * Events counted per time period: `general` counts events, `unique` distinct users, `average`
 * events per user. Without `on`, each event name is a series; with `on`, each value of it (events
 * without one left out), the `limit` values with the most events kept (ties by value).
 */
export interface SegmentationSpec {
  events: string[];
  fromDay: number;
  toDay: number;
  /** The project's time zone: days, periods and keys are its. */
  zone: TimeZone;
  unit: SeriesUnit;
  type: SegmentationType;
  where?: EventExpression;
  on?: EventExpression;
  /** Only these values of `on` (/events/properties `values`). */
  values?: string[];
  limit: number;
}
