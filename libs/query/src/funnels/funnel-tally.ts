import { bucketKeys } from '../time/buckets';
import { formatDay } from '../time/utc-days';
import { FunnelSpec } from './funnel-spec';

export const OVERALL = '$overall';
export const OTHER = '$other';
/** The segment of users whose step-1 event has no value for `on`. */
export const UNDEFINED_SEGMENT = 'undefined';

/**
 * Users of one bucket and segment by the step they reached, with their summed step times: what the
 * SQL and the reference both produce, and what the answer is shaped from. Times are milliseconds.
 */
export interface FunnelCell {
  bucket: number;
  segment: string;
  /** Users reaching step i. */
  counts: number[];
  /** Σ (t_i − t_{i−1}) over those users (0 at step 0). */
  fromPreviousMs: bigint[];
  /** Σ (t_i − t_0) over those users. */
  fromStartMs: bigint[];
}

export interface FunnelTally {
  cells: FunnelCell[];
  /** With `on`: the kept segments in rank order, then `$other` when something folded. */
  segments?: string[];
}

export interface FunnelStepResult {
  count: number;
  step_conv_ratio: number;
  overall_conv_ratio: number;
  avg_time: number | null;
  avg_time_from_start: number | null;
  goal: string;
  event: string;
  step_label: string;
}

export interface FunnelEntry {
  steps: FunnelStepResult[];
  analysis: { completion: number; starting_amount: number; steps: number; worst: number };
}

export interface FunnelResult {
  meta: { dates: string[] };
  data: Record<string, FunnelEntry | Record<string, FunnelEntry>>;
}

const ratio = (numerator: number, denominator: number) => (denominator === 0 ? 0 : numerator / denominator);

/** Mean whole seconds, halves rounded up; null over no users. */
export function meanSeconds(sumMs: bigint, users: number): number | null {
  if (users === 0) return null;
  const divisor = 1000n * BigInt(users);
  return Number((2n * sumMs + divisor) / (2n * divisor));
}

/** The step losing the most users from the one before (ties: the earliest). */
function worstStep(counts: number[]): number {
  let worst = 1;
  for (let i = 2; i < counts.length; i++) if (counts[i - 1] - counts[i] > counts[worst - 1] - counts[worst]) worst = i;
  return worst;
}

export function emptyCell(spec: FunnelSpec, bucket: number, segment: string): FunnelCell {
  const zeros = spec.steps.map(() => 0n);
  return { bucket, segment, counts: spec.steps.map(() => 0), fromPreviousMs: zeros, fromStartMs: [...zeros] };
}

/** Adds a cell's users and times into another (same steps). */
export function addCells(into: FunnelCell, cell: FunnelCell): void {
  cell.counts.forEach((count, i) => {
    into.counts[i] += count;
    into.fromPreviousMs[i] += cell.fromPreviousMs[i];
    into.fromStartMs[i] += cell.fromStartMs[i];
  });
}

function entry(spec: FunnelSpec, cell: FunnelCell): FunnelEntry {
  const { counts } = cell;
  const steps = spec.steps.map((step, i) => ({
    count: counts[i],
    step_conv_ratio: i === 0 ? 1 : ratio(counts[i], counts[i - 1]),
    overall_conv_ratio: i === 0 ? 1 : ratio(counts[i], counts[0]),
    avg_time: i === 0 ? null : meanSeconds(cell.fromPreviousMs[i], counts[i]),
    avg_time_from_start: i === 0 ? null : meanSeconds(cell.fromStartMs[i], counts[i]),
    goal: step.event,
    event: step.event,
    step_label: step.label ?? step.event,
  }));
  const analysis = {
    completion: counts[counts.length - 1],
    starting_amount: counts[0],
    steps: counts.length,
    worst: worstStep(counts),
  };
  return { steps, analysis };
}

/** The spec's answer: every bucket (empty ones too); with `on`, `$overall` and each kept segment. */
export function funnelResult(spec: FunnelSpec, tally: FunnelTally): FunnelResult {
  const buckets = bucketKeys(spec.fromDay, spec.toDay, spec.buckets);
  const data: FunnelResult['data'] = {};
  for (const bucket of buckets) {
    const cells = tally.cells.filter((cell) => cell.bucket === bucket);
    const overall = emptyCell(spec, bucket, OVERALL);
    cells.forEach((cell) => addCells(overall, cell));
    if (!tally.segments) {
      data[formatDay(bucket)] = entry(spec, overall);
      continue;
    }
    const segmented: Record<string, FunnelEntry> = { [OVERALL]: entry(spec, overall) };
    for (const segment of tally.segments) {
      segmented[segment] = entry(
        spec,
        cells.find((cell) => cell.segment === segment) ?? emptyCell(spec, bucket, segment),
      );
    }
    data[formatDay(bucket)] = segmented;
  }
  return { meta: { dates: buckets.map(formatDay) }, data };
}
