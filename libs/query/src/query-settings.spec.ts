import { loadQuerySettings } from './query-settings';

describe('loadQuerySettings', () => {
  it("defaults to the spec's 60 an hour, 3 a second, 5 at once", () => {
    expect(loadQuerySettings({})).toEqual({
      limits: { perHour: 60, perSecond: 3, concurrent: 5 },
      maxExecutionSeconds: 60,
      maxMemoryBytes: 4096 * 1024 ** 2,
      identityLookup: true,
    });
  });

  it('reads the environment, empty values counting as unset', () => {
    const settings = loadQuerySettings({
      QUERY_LIMIT_PER_HOUR: '600',
      QUERY_LIMIT_PER_SECOND: '',
      QUERY_LIMIT_CONCURRENT: ' 7 ',
      QUERY_MAX_EXECUTION_SECONDS: '30',
      QUERY_MAX_MEMORY_MB: '512',
    });
    expect(settings).toEqual({
      limits: { perHour: 600, perSecond: 3, concurrent: 7 },
      maxExecutionSeconds: 30,
      maxMemoryBytes: 512 * 1024 ** 2,
      identityLookup: true,
    });
  });

  it('resolves unique counts through identity_lookup on one server only, not on a cluster', () => {
    expect(loadQuerySettings({ CLICKHOUSE_CLUSTER: 'analytics' }).identityLookup).toBe(false);
  });

  it('names every bad variable in one error', () => {
    expect(() => loadQuerySettings({ QUERY_LIMIT_PER_HOUR: 'many', QUERY_LIMIT_CONCURRENT: '0' })).toThrow(
      /QUERY_LIMIT_PER_HOUR must be a whole number from 1 to 1000000000 \(got "many"\)[\s\S]*QUERY_LIMIT_CONCURRENT must be a whole number from 1 to 1000000 \(got "0"\)/,
    );
  });
});
