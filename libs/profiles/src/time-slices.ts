import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long a loop over one request's records or one batch's updates holds the event loop at most. */
export const SLICE_MS = 20;

/**
 * Hands the event loop back once a slice of work has run: a loop over thousands of records whose
 * steps only await promises that are already settled never lets a timer or a socket (`/healthz`,
 * another request) run until it ends.
 */
export class TimeSlices {
  private start = performance.now();

  async pause(): Promise<void> {
    if (performance.now() - this.start < SLICE_MS) return;
    await nextTurn();
    this.start = performance.now();
  }
}
