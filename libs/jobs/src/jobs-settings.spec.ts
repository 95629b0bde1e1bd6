import { DEFAULT_JOBS_SETTINGS, resolveJobsSettings } from './jobs-settings';

describe('resolveJobsSettings', () => {
  it('fills in every default, and the default policy field by field', () => {
    const settings = resolveJobsSettings({ pollingIntervalSeconds: 1, defaultPolicy: { retryLimit: 5 } });
    expect(settings).toEqual({
      ...DEFAULT_JOBS_SETTINGS,
      pollingIntervalSeconds: 1,
      defaultPolicy: { ...DEFAULT_JOBS_SETTINGS.defaultPolicy, retryLimit: 5 },
    });
  });

  it('names every bad value in one message', () => {
    expect(() =>
      resolveJobsSettings({
        schema: 'Jobs; drop',
        scheduleIntervalSeconds: 60,
        stopTimeoutMs: 10,
        defaultPolicy: { expireInSeconds: 0, retryDelayMaxSeconds: 5, retryBackoff: false },
      }),
    ).toThrow(
      'Invalid jobs settings: schema must be a lower-case identifier (got "Jobs; drop"); scheduleIntervalSeconds must be an integer from 1 to 45; ' +
        'stopTimeoutMs must be at least 1000; retryDelayMaxSeconds needs retryBackoff; expireInSeconds must be an integer from 1 to 86400',
    );
  });
});
