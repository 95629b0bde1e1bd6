import { EventExpression } from '../expressions/query-expressions';
import { SeriesUnit } from '../time/series';

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
  unit: SeriesUnit;
  type: SegmentationType;
  where?: EventExpression;
  on?: EventExpression;
  /** Only these values of `on` (/events/properties `values`). */
  values?: string[];
  limit: number;
}
