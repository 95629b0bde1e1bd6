import { SystemClock } from '@analytics/clock';
import { VerifiedCache } from './verified-cache';

describe('VerifiedCache', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('forgets an entry its time after it was set, however often it is read', () => {
    const cache = new VerifiedCache<string>(new SystemClock(), 30_000);
    cache.set('k', 'v');
    jest.advanceTimersByTime(20_000);
    expect(cache.get('k')).toBe('v');
    jest.advanceTimersByTime(10_000);
    expect(cache.get('k')).toBeUndefined();
  });

  it('keeps a sliding entry while it is read more often than its time, and forgets it once idle that long', () => {
    const cache = new VerifiedCache<string>(new SystemClock(), 30_000, { slide: true });
    cache.set('k', 'v');
    for (let i = 0; i < 10; i++) {
      jest.advanceTimersByTime(20_000);
      expect(cache.get('k')).toBe('v');
    }
    jest.advanceTimersByTime(30_000);
    expect(cache.get('k')).toBeUndefined();
  });

  it('forgets the least recently used sliding entry first when full', () => {
    const cache = new VerifiedCache<string>(new SystemClock(), 30_000, { slide: true, maxEntries: 2 });
    cache.set('a', '1');
    cache.set('b', '2');
    cache.get('a');
    cache.set('c', '3');
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual(['1', undefined, '3']);
  });
});
