import { attemptWithRetries, errorCode, RetryPolicy } from './attempt';

const policy = (stopping = false): RetryPolicy & { onRetry: jest.Mock } => ({
  classify: (error) => ((error as { code?: string }).code === '27' ? 'dead-letter' : 'retry'),
  stopping: () => stopping,
  onRetry: jest.fn(),
});

describe('attemptWithRetries', () => {
  it('retries passing failures until the write succeeds', async () => {
    let attempts = 0;
    const retry = policy();
    const outcome = await attemptWithRetries(async () => {
      if (++attempts < 3) throw new Error('connection reset');
      return 'written';
    }, retry);
    expect(outcome).toEqual({ outcome: 'done', value: 'written' });
    expect(retry.onRetry).toHaveBeenCalledTimes(2);
  });

  it('gives up at once when the data is at fault, with the reason and code', async () => {
    const failure = Object.assign(new Error('Cannot parse input'), {
      code: '27',
      type: 'CANNOT_PARSE_INPUT_ASSERTION_FAILED',
    });
    expect(await attemptWithRetries(() => Promise.reject(failure), policy())).toEqual({
      outcome: 'dead-letter',
      reason: 'Cannot parse input',
      code: 'CANNOT_PARSE_INPUT_ASSERTION_FAILED',
    });
  });

  it('rethrows a passing failure once stopping, so the batch is consumed again', async () => {
    await expect(attemptWithRetries(() => Promise.reject(new Error('down')), policy(true))).rejects.toThrow('down');
  });
});

describe('errorCode', () => {
  it('names the engine error, looking through causes', () => {
    expect(errorCode({ message: 'Failed query', cause: { code: '23503' } })).toBe('23503');
    expect(errorCode({ code: '241', type: 'MEMORY_LIMIT_EXCEEDED' })).toBe('MEMORY_LIMIT_EXCEEDED');
    expect(errorCode(new Error('plain'))).toBeUndefined();
  });
});
