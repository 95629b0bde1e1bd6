import { LIVE_WINDOWS_S, liveWhere, readNewest } from '../../web/console/src/live-window';

/** A project whose events per window are given; a read returns at most `readLimit` of them. */
function project(eventsInWindow: Record<number, number>, readLimit: number) {
  const asked: number[] = [];
  const read = async (windowS: number) => {
    asked.push(windowS);
    return Array.from({ length: Math.min(eventsInWindow[windowS], readLimit) }, (_, i) => i);
  };
  return { asked, read };
}
const limits = { readLimit: 2000, wanted: 100 };
const [MINUTE, TEN_MINUTES, HOUR, TWO_DAYS] = LIVE_WINDOWS_S;

describe('the live view window', () => {
  it('stays on a window that holds enough events and fits one read: one read a poll', async () => {
    const p = project({ [MINUTE]: 20, [TEN_MINUTES]: 300, [HOUR]: 1500, [TWO_DAYS]: 9000 }, 2000);
    expect(await readNewest(1, p.read, limits)).toMatchObject({ window: 1 });
    expect(p.asked).toEqual([TEN_MINUTES]);
  });

  it('narrows while a read comes back full, so the newest events are among those read', async () => {
    const p = project({ [MINUTE]: 900, [TEN_MINUTES]: 9000, [HOUR]: 50_000, [TWO_DAYS]: 10 ** 6 }, 2000);
    const result = await readNewest(3, p.read, limits);
    expect(result.window).toBe(0);
    expect(result.rows).toHaveLength(900);
    expect(p.asked).toEqual([TWO_DAYS, HOUR, TEN_MINUTES, MINUTE]);
  });

  it('widens while too few events are in the window, and keeps the narrower one when the wider overflows', async () => {
    const quiet = project({ [MINUTE]: 0, [TEN_MINUTES]: 3, [HOUR]: 40, [TWO_DAYS]: 120 }, 2000);
    expect(await readNewest(0, quiet.read, limits)).toMatchObject({ window: 3 });
    expect(quiet.asked).toEqual([MINUTE, TEN_MINUTES, HOUR, TWO_DAYS]);

    const burst = project({ [MINUTE]: 5, [TEN_MINUTES]: 60, [HOUR]: 5000, [TWO_DAYS]: 9000 }, 2000);
    const result = await readNewest(0, burst.read, limits);
    expect(result).toMatchObject({ window: 1 });
    expect(result.rows).toHaveLength(60);
    expect(burst.asked).toEqual([MINUTE, TEN_MINUTES, HOUR]);
  });

  it('shows the narrowest window even when it overflows (more than a read per minute)', async () => {
    const p = project({ [MINUTE]: 50_000, [TEN_MINUTES]: 500_000, [HOUR]: 10 ** 6, [TWO_DAYS]: 10 ** 7 }, 2000);
    expect(await readNewest(1, p.read, limits)).toMatchObject({ window: 0 });
    expect(p.asked).toEqual([TEN_MINUTES, MINUTE]);
  });

  it('asks the export for the window in event time, with the user filter kept whole', () => {
    expect(liveWhere(600, 1_800_000_000_500, '')).toBe('properties["time"] >= 1799999400');
    expect(liveWhere(60, 1_800_000_000_000, 'properties["a"] == 1 or properties["b"] == 2')).toBe(
      'properties["time"] >= 1799999940 and (properties["a"] == 1 or properties["b"] == 2)',
    );
  });
});
