import { segmentationKey, seriesKeys } from '../time/series';
import { SegmentationSpec } from './segmentation-spec';

/** One series and period: its events and distinct users. What the SQL and the reference both produce. */
export interface SegmentationCell {
  key: number;
  series: string;
  events: number;
  users: number;
}

export interface SegmentationResult {
  data: { series: string[]; values: Record<string, Record<string, number>> };
  legend_size: number;
}

function value(spec: SegmentationSpec, cell: SegmentationCell | undefined): number {
  if (!cell) return 0;
  if (spec.type === 'general') return cell.events;
  if (spec.type === 'unique') return cell.users;
  return cell.events / cell.users;
}

/** Every period of the range in `series`, and for every shown series a value for each (0 where nothing happened). */
export function segmentationResult(
  spec: SegmentationSpec,
  cells: readonly SegmentationCell[],
  shown: readonly string[],
): SegmentationResult {
  const keys = seriesKeys(spec.fromDay, spec.toDay, spec.unit, spec.zone);
  const byKey = new Map(cells.map((cell) => [`${cell.series}\u0000${cell.key}`, cell]));
  const values: Record<string, Record<string, number>> = {};
  for (const series of shown) {
    values[series] = Object.fromEntries(
      keys.map((key) => [segmentationKey(key, spec.unit), value(spec, byKey.get(`${series}\u0000${key}`))]),
    );
  }
  return { data: { series: keys.map((key) => segmentationKey(key, spec.unit)), values }, legend_size: shown.length };
}

/** The series to show: the requested events without `on`; the ranked values with it. */
export function shownSeries(spec: SegmentationSpec, ranked: readonly string[]): string[] {
  return spec.on ? [...ranked] : [...spec.events];
}
