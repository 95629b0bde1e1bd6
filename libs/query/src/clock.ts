/** The current time, injectable so reports with relative dates (last_days, interval) test with a fixed now. */
export const QUERY_CLOCK = Symbol('QueryClock');
export type QueryClock = () => number;
export const systemClock: QueryClock = () => Date.now();
