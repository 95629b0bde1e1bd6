import { compareUtf8 } from '../reference/query-event';
import { FlowDirection, FlowsSpec } from './flows-spec';

/** One path: the anchor and the events people did next (after) or before it, in time order. */
export interface FlowPath {
  steps: string[];
  count: number;
}

/** What the SQL and the reference both compute. */
export interface FlowsTally {
  /** People with an anchor event in the range: the paths' total. */
  people: number;
  /** How many different paths they took. */
  distinctPaths: number;
  /** The `limit` paths taken most (ties by their steps, in byte order). */
  top: FlowPath[];
  /** reached[k]: the people whose path holds at least k + 1 events (k = 0 is the anchor: everyone). */
  reached: number[];
}

/** The answer of `/flows` (docs/queries.md, "Flows"). */
export interface FlowsResult {
  event: string;
  direction: FlowDirection;
  people: number;
  paths: FlowPath[];
  /** The paths past `limit`: how many, and how many people took them. */
  other: { paths: number; count: number };
  /** For each step from the anchor (1 = the event next to it): who got that far, and who stopped just before. */
  drop_off: { step: number; reached: number; dropped: number }[];
}

/** The order paths are listed in: most taken first, then by their steps (byte order; a prefix first). */
export function comparePaths(a: FlowPath, b: FlowPath): number {
  if (a.count !== b.count) return b.count - a.count;
  for (let i = 0; i < Math.min(a.steps.length, b.steps.length); i++) {
    const order = compareUtf8(a.steps[i], b.steps[i]);
    if (order !== 0) return order;
  }
  return a.steps.length - b.steps.length;
}

export function flowsResult(spec: FlowsSpec, tally: FlowsTally): FlowsResult {
  const reachedAt = (step: number) => tally.reached[step] ?? 0;
  const listed = tally.top.reduce((sum, path) => sum + path.count, 0);
  return {
    event: spec.event,
    direction: spec.direction,
    people: tally.people,
    paths: tally.top,
    other: { paths: tally.distinctPaths - tally.top.length, count: tally.people - listed },
    drop_off: Array.from({ length: spec.steps }, (_, i) => ({
      step: i + 1,
      reached: reachedAt(i + 1),
      dropped: reachedAt(i) - reachedAt(i + 1),
    })),
  };
}
