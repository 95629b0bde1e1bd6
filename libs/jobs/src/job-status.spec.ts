import type { JobWithMetadata } from 'pg-boss';
import { errorMessage, toJobStatus } from './job-status';

const row = (overrides: Partial<JobWithMetadata<{ n: number }>>): JobWithMetadata<{ n: number }> =>
  ({
    id: '00000000-0000-4000-8000-000000000001',
    name: 'reports',
    data: { n: 1 },
    state: 'created',
    retryCount: 0,
    retryLimit: 2,
    startedOn: null,
    completedOn: null,
    createdOn: new Date('2030-01-01T10:00:00Z'),
    startAfter: new Date('2030-01-01T10:00:00Z'),
    output: null,
    ...overrides,
  }) as unknown as JobWithMetadata<{ n: number }>;

describe('toJobStatus', () => {
  it('counts attempts from claims: none before the first, retryCount + 1 after', () => {
    expect(toJobStatus(row({})).attempts).toBe(0);
    expect(toJobStatus(row({ state: 'active', startedOn: new Date() })).attempts).toBe(1);
    expect(toJobStatus(row({ state: 'retry', retryCount: 1, startedOn: new Date() })).attempts).toBe(2);
  });

  it('shows created and retry as queued, with the error of the attempt that failed', () => {
    const status = toJobStatus(
      row({ state: 'retry', startedOn: new Date(), output: { name: 'Error', message: 'warehouse unreachable' } }),
    );
    expect(status).toMatchObject({ state: 'queued', lastError: 'warehouse unreachable', maxAttempts: 3 });
  });

  it('never reads a completed job output as an error', () => {
    expect(
      toJobStatus(row({ state: 'completed', output: { message: 'a result that looks like one' } })).lastError,
    ).toBeNull();
  });
});

describe('errorMessage', () => {
  it.each([
    [{ name: 'Error', message: 'boom', stack: '…' }, 'boom'],
    [{ value: { message: 'job timed out' } }, 'job timed out'],
    [{ value: 'pg-boss shut down while active' }, 'pg-boss shut down while active'],
    [null, null],
    [{ value: 42 }, null],
  ])('reads %j as %j', (output, message) => {
    expect(errorMessage(output)).toBe(message);
  });
});
