import { keepsEvent } from '../expressions/query-expressions';
import { compareUtf8, QueryEvent } from '../reference/query-event';
import { FlowsSpec } from './flows-spec';
import { comparePaths, FlowPath, FlowsTally } from './flows-tally';

/**
 * The flows rules written plainly, for checking the SQL (docs/queries.md, "Flows"): only events in
 * the range are read; a person's events are ordered by time, then name; the anchor is the person's
 * first anchor event in the range that passes `where`; the path is the anchor and the `steps`
 * events right after it (or right before it), repeats kept, except copies of the anchor at its own
 * millisecond, which are the anchor.
 */

const byTimeThenName = (a: QueryEvent, b: QueryEvent) => a.timeMs - b.timeMs || compareUtf8(a.event, b.event);

function pathOf(spec: FlowsSpec, events: QueryEvent[]): string[] | undefined {
  const anchors = events.filter((e) => e.event === spec.event && keepsEvent([spec.where], e));
  if (!anchors.length) return undefined;
  const anchorMs = Math.min(...anchors.map((e) => e.timeMs));
  const key = (e: QueryEvent) => byTimeThenName(e, { ...anchors[0], timeMs: anchorMs });
  const sorted = [...events].sort(byTimeThenName);
  if (spec.direction === 'after')
    return [
      spec.event,
      ...sorted
        .filter((e) => key(e) > 0)
        .slice(0, spec.steps)
        .map((e) => e.event),
    ];
  return [
    ...sorted
      .filter((e) => key(e) < 0)
      .slice(-spec.steps)
      .map((e) => e.event),
    spec.event,
  ];
}

export function referenceFlows(events: readonly QueryEvent[], spec: FlowsSpec): FlowsTally {
  const { fromMs, toEndMs } = spec.zone.rangeMs(spec.fromDay, spec.toDay);
  const people = new Map<string, QueryEvent[]>();
  for (const event of events) {
    if (event.timeMs < fromMs || event.timeMs >= toEndMs) continue;
    const list = people.get(event.distinctId);
    if (list) list.push(event);
    else people.set(event.distinctId, [event]);
  }
  const counts = new Map<string, FlowPath>();
  for (const personEvents of people.values()) {
    const steps = pathOf(spec, personEvents);
    if (!steps) continue;
    const key = JSON.stringify(steps);
    const held = counts.get(key);
    if (held) held.count++;
    else counts.set(key, { steps, count: 1 });
  }
  const paths = [...counts.values()].sort(comparePaths);
  const reached = Array.from({ length: spec.steps + 1 }, (_, k) =>
    paths.reduce((sum, path) => sum + (path.steps.length > k ? path.count : 0), 0),
  );
  return {
    people: reached[0],
    distinctPaths: paths.length,
    top: paths.slice(0, spec.limit),
    reached: reached.filter((n) => n > 0),
  };
}
