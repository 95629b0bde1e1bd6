import { keepsEvent, segmentOfEvent } from '../expressions/query-expressions';
import { QueryEvent } from '../reference/query-event';
import { topSegments } from '../reference/segment-ranking';
import { seriesKeyOf } from '../time/series';
import { SegmentationSpec } from './segmentation-spec';
import { SegmentationCell } from './segmentation-tally';

/** Segmentation written plainly, for checking the SQL: the cells and the ranked series. */
export function referenceSegmentation(
  events: readonly QueryEvent[],
  spec: SegmentationSpec,
): { cells: SegmentationCell[]; ranked: string[] } {
  const { fromMs, toEndMs } = spec.zone.rangeMs(spec.fromDay, spec.toDay);
  const cells = new Map<string, { key: number; series: string; events: number; users: Set<string> }>();
  const totals = new Map<string, number>();
  for (const event of events) {
    if (
      !spec.events.includes(event.event) ||
      event.timeMs < fromMs ||
      event.timeMs >= toEndMs ||
      !keepsEvent([spec.where], event)
    )
      continue;
    const series = spec.on ? segmentOfEvent(spec.on, event) : event.event;
    if (series === undefined || (spec.values && !spec.values.includes(series))) continue;
    const key = seriesKeyOf(spec.zone.wallMs(event.timeMs), spec.unit);
    const id = `${series}\u0000${key}`;
    const cell = cells.get(id) ?? { key, series, events: 0, users: new Set<string>() };
    cell.events += 1;
    cell.users.add(event.distinctId);
    cells.set(id, cell);
    totals.set(series, (totals.get(series) ?? 0) + 1);
  }
  const { kept } = topSegments(totals, spec.limit);
  const keptSet = new Set(kept);
  return {
    cells: [...cells.values()]
      .filter((cell) => keptSet.has(cell.series))
      .map((cell) => ({ ...cell, users: cell.users.size })),
    ranked: kept,
  };
}
