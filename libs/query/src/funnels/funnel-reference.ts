import { keepsEvent, segmentOfEvent } from '../expressions/query-expressions';
import { compareUtf8, eventsByUser, QueryEvent } from '../reference/query-event';
import { topSegments } from '../reference/segment-ranking';
import { bucketOf } from '../time/buckets';
import { FunnelSpec, windowEndMs } from './funnel-spec';
import { addCells, emptyCell, FunnelCell, FunnelTally, OTHER, UNDEFINED_SEGMENT } from './funnel-tally';

/**
 * The funnel rules written as plainly as possible, for checking the SQL: every chain of distinct
 * events filling steps 1..k in time order (ties allowed) within the window is enumerated, and the
 * best per user and bucket is picked by the contract's order. Exponential in the worst case: for
 * tests, never for production data.
 */

interface Step {
  event: QueryEvent;
  mask: number;
}

interface Chain {
  times: number[];
  /** The step-1 event's `on` value (undefined: no value). */
  segment: string | undefined;
}

function stepMask(spec: FunnelSpec, event: QueryEvent): number {
  if (!keepsEvent(spec.filters, event)) return 0;
  return spec.steps.reduce(
    (mask, step, i) => (step.event === event.event && keepsEvent([step.where], event) ? mask | (1 << i) : mask),
    0,
  );
}

/** Deeper first, then earlier start, then earlier step times, then a defined segment before none, then the smaller. */
function better(a: Chain, b: Chain): boolean {
  if (a.times.length !== b.times.length) return a.times.length > b.times.length;
  for (let i = 0; i < a.times.length; i++) if (a.times[i] !== b.times[i]) return a.times[i] < b.times[i];
  if (a.segment === undefined || b.segment === undefined) return b.segment === undefined && a.segment !== undefined;
  return compareUtf8(a.segment, b.segment) < 0;
}

/** The best chain starting at each step-1 event, extended over every choice of later events. */
function bestChainFrom(spec: FunnelSpec, events: Step[], start: number): Chain {
  const used = new Set<number>([start]);
  const startTime = events[start].event.timeMs;
  const endTime = windowEndMs(spec, startTime);
  const segment = spec.on && segmentOfEvent(spec.on, events[start].event);
  let best: Chain = { times: [startTime], segment };
  const extend = (times: number[]) => {
    const chain = { times, segment };
    if (better(chain, best)) best = chain;
    const step = times.length;
    if (step === spec.steps.length) return;
    events.forEach((candidate, index) => {
      const t = candidate.event.timeMs;
      if (used.has(index) || !(candidate.mask & (1 << step)) || t < times[step - 1] || t > endTime) return;
      used.add(index);
      extend([...times, t]);
      used.delete(index);
    });
  };
  extend([startTime]);
  return best;
}

function userChains(spec: FunnelSpec, events: Step[]): Map<number, Chain> {
  const { fromMs, toEndMs } = spec.zone.rangeMs(spec.fromDay, spec.toDay);
  const perBucket = new Map<number, Chain>();
  events.forEach(({ event, mask }, index) => {
    if (!(mask & 1) || event.timeMs < fromMs || event.timeMs >= toEndMs) return;
    const bucket = bucketOf(spec.zone.dayOf(event.timeMs), spec.buckets, spec.fromDay);
    const chain = bestChainFrom(spec, events, index);
    const held = perBucket.get(bucket);
    if (!held || better(chain, held)) perBucket.set(bucket, chain);
  });
  return perBucket;
}

function addChain(
  cells: Map<string, FunnelCell>,
  spec: FunnelSpec,
  bucket: number,
  segment: string,
  chain: Chain,
): void {
  const key = `${bucket}|${segment}`;
  const cell = cells.get(key) ?? emptyCell(spec, bucket, segment);
  cells.set(key, cell);
  chain.times.forEach((t, i) => {
    cell.counts[i] += 1;
    cell.fromPreviousMs[i] += BigInt(t - chain.times[Math.max(0, i - 1)]);
    cell.fromStartMs[i] += BigInt(t - chain.times[0]);
  });
}

/** With `on`, segments past `limit` fold into `$other`. */
function foldSegments(cells: FunnelCell[], spec: FunnelSpec): FunnelTally {
  const totals = new Map<string, number>();
  for (const cell of cells) totals.set(cell.segment, (totals.get(cell.segment) ?? 0) + cell.counts[0]);
  const { kept, folded } = topSegments(totals, spec.limit);
  if (folded.size === 0) return { cells, segments: kept };
  const merged = new Map<string, FunnelCell>();
  for (const cell of cells) {
    const segment = folded.has(cell.segment) ? OTHER : cell.segment;
    const key = `${cell.bucket}|${segment}`;
    const into = merged.get(key) ?? emptyCell(spec, cell.bucket, segment);
    addCells(into, cell);
    merged.set(key, into);
  }
  return { cells: [...merged.values()], segments: [...kept, OTHER] };
}

export function referenceFunnel(events: readonly QueryEvent[], spec: FunnelSpec): FunnelTally {
  const cells = new Map<string, FunnelCell>();
  for (const userEvents of eventsByUser(events).values()) {
    const steps = userEvents.map((event) => ({ event, mask: stepMask(spec, event) })).filter((step) => step.mask !== 0);
    for (const [bucket, chain] of userChains(spec, steps)) {
      addChain(cells, spec, bucket, spec.on ? (chain.segment ?? UNDEFINED_SEGMENT) : '', chain);
    }
  }
  return spec.on ? foldSegments([...cells.values()], spec) : { cells: [...cells.values()] };
}
