import { isPoisonWrite, retryPassingFailures } from './write-failure';

describe('isPoisonWrite', () => {
  it('blames the data for SQLSTATE classes 22 and 23, also when wrapped', () => {
    expect(isPoisonWrite({ code: '22P02' })).toBe(true);
    expect(isPoisonWrite({ message: 'Failed query', cause: { code: '23503' } })).toBe(true);
    expect(isPoisonWrite({ code: '08006' })).toBe(false);
    expect(isPoisonWrite({ code: 'ECONNREFUSED' })).toBe(false);
    expect(isPoisonWrite(new Error('timeout'))).toBe(false);
  });
});

describe('retryPassingFailures', () => {
  const options = (stopping = false) => ({ isPoison: isPoisonWrite, stopping: () => stopping, onRetry: jest.fn() });

  it('retries passing failures until the work succeeds', async () => {
    let attempts = 0;
    const retry = options();
    const outcome = await retryPassingFailures(async () => {
      if (++attempts < 3) throw new Error('connection reset');
      return 'done';
    }, retry);
    expect(outcome).toEqual({ value: 'done' });
    expect(retry.onRetry).toHaveBeenCalledTimes(2);
  });

  it('gives up at once on poison data, and rethrows passing failures once stopping', async () => {
    expect(await retryPassingFailures(() => Promise.reject({ code: '22021' }), options())).toBeUndefined();
    await expect(retryPassingFailures(() => Promise.reject(new Error('down')), options(true))).rejects.toThrow('down');
  });
});
