/**
 * The raw export is ordered by (event, day, user, time), not by time, so the newest events are not
 * the first ones it returns. The live view therefore asks only for a recent window of event time,
 * as wide as possible while one read still holds all of it: then the newest events are among what
 * came back. Windows, narrowest first: a minute, ten minutes, an hour, two days (all it shows).
 */
export const LIVE_WINDOWS_S = [60, 600, 3_600, 2 * 86_400] as const;

export interface LiveRead<T> {
  rows: T[];
  /** Index in LIVE_WINDOWS_S of the window the rows cover: where the next poll starts. */
  window: number;
}

/**
 * Reads from window `start`: narrower while a read comes back full (`readLimit` rows: the window
 * holds more than one read), wider while it holds fewer than `wanted`. A window wider than one
 * that fitted and came back full keeps the narrower result. At most one read per window.
 */
export async function readNewest<T>(
  start: number,
  read: (windowS: number) => Promise<T[]>,
  limits: { readLimit: number; wanted: number },
): Promise<LiveRead<T>> {
  let window = Math.min(Math.max(start, 0), LIVE_WINDOWS_S.length - 1);
  let fitted: LiveRead<T> | undefined;
  for (;;) {
    const rows = await read(LIVE_WINDOWS_S[window]);
    if (rows.length >= limits.readLimit) {
      if (fitted) return fitted;
      if (window === 0) return { rows, window };
      window--;
      continue;
    }
    fitted = { rows, window };
    if (rows.length >= limits.wanted || window === LIVE_WINDOWS_S.length - 1) return fitted;
    window++;
  }
}

/** The export's `where`: events of the last `windowS` seconds, and the user's own filter when given. */
export function liveWhere(windowS: number, nowMs: number, userWhere: string): string {
  const since = `properties["time"] >= ${Math.floor(nowMs / 1000) - windowS}`;
  return userWhere ? `${since} and (${userWhere})` : since;
}
