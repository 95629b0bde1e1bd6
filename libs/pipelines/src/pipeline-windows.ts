import { Frequency, PipelineDefinition } from './pipeline-definition';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A closed window is exported this long after it closes (hourly at :30, daily at 00:30, as the real API). */
export const SCHEDULE_DELAY_MS = 30 * 60_000;
/** How far back `sync` looks for changed windows. */
export const SYNC_LOOKBACK_DAYS = 10;

export const windowLength = (frequency: Frequency): number => (frequency === 'hourly' ? HOUR : DAY);

export interface PipelineWindow {
  /** Inclusive start, UTC. */
  start: Date;
  /** Exclusive end. */
  end: Date;
}

type Span = Pick<PipelineDefinition, 'frequency' | 'fromDate' | 'toDate'>;

const startOf = (pipeline: Span) => Date.parse(`${pipeline.fromDate}T00:00:00Z`);
/** Exclusive end of the pipeline (the day after `to_date`), or Infinity when continuous. */
const endOf = (pipeline: Span) => (pipeline.toDate ? Date.parse(`${pipeline.toDate}T00:00:00Z`) + DAY : Infinity);

/**
 * When a window may run: windows already closed when the pipeline was created run at once (the
 * backfill); later ones at close + 30 minutes.
 */
export function windowDueAt(window: PipelineWindow, createdAt: Date): Date {
  if (window.end.getTime() <= createdAt.getTime()) return createdAt;
  return new Date(window.end.getTime() + SCHEDULE_DELAY_MS);
}

/** The windows of the pipeline due at `now` (after the window starting at `after`, if given), oldest first, at most `limit`. */
export function dueWindows(
  pipeline: Span,
  createdAt: Date,
  now: Date,
  { after, limit = 1000 }: { after?: Date; limit?: number } = {},
): PipelineWindow[] {
  const length = windowLength(pipeline.frequency);
  const last = Math.min(endOf(pipeline), now.getTime());
  const windows: PipelineWindow[] = [];
  for (
    let start = after ? after.getTime() + length : startOf(pipeline);
    start + length <= last && windows.length < limit;
    start += length
  ) {
    const window = { start: new Date(start), end: new Date(start + length) };
    if (windowDueAt(window, createdAt).getTime() <= now.getTime()) windows.push(window);
  }
  return windows;
}

/** The first window after `after` (or the first of the pipeline), or undefined once the pipeline has ended. */
export function windowAfter(pipeline: Span, after: Date | undefined): PipelineWindow | undefined {
  const length = windowLength(pipeline.frequency);
  const start = after === undefined ? startOf(pipeline) : after.getTime() + length;
  if (start + length > endOf(pipeline)) return undefined;
  return { start: new Date(start), end: new Date(start + length) };
}

/** The window holding `time`. */
export function windowOf(frequency: Frequency, time: Date): PipelineWindow {
  const length = windowLength(frequency);
  const start = Math.floor(time.getTime() / length) * length;
  return { start: new Date(start), end: new Date(start + length) };
}

/** `YYYY/MM/DD` (daily) or `YYYY/MM/DD/HH` (hourly): the window's place in the bucket layout. */
export function windowPath(frequency: Frequency, window: PipelineWindow): string {
  const iso = window.start.toISOString();
  const path = `${iso.slice(0, 4)}/${iso.slice(5, 7)}/${iso.slice(8, 10)}`;
  return frequency === 'hourly' ? `${path}/${iso.slice(11, 13)}` : path;
}
