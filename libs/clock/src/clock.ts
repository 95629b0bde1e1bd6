/**
 * The time, as every service reads it: injected, so tests set it instead of sleeping, and so
 * "now" is read in one place per operation.
 */
export abstract class Clock {
  /** Milliseconds since the epoch. */
  abstract now(): number;

  date(): Date {
    return new Date(this.now());
  }
}

export class SystemClock extends Clock {
  now(): number {
    return Date.now();
  }
}

/** A clock that moves only when told: for tests of expiries, windows and schedules. */
export class ManualClock extends Clock {
  constructor(private current: number = Date.UTC(2026, 0, 1)) {
    super();
  }

  now(): number {
    return this.current;
  }

  set(ms: number): void {
    this.current = ms;
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
