import { keyedJobId } from './keyed-job-id';

describe('keyedJobId', () => {
  it('is the same UUID (version 5) for the same queue and key, on any replica', () => {
    const id = keyedJobId('compliance.deletion', 'request-17');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keyedJobId('compliance.deletion', 'request-17')).toBe(id);
  });

  it('differs across keys and queues, including ones that concatenate alike', () => {
    const ids = [keyedJobId('a', 'bc'), keyedJobId('ab', 'c'), keyedJobId('a', 'bd'), keyedJobId('b', 'bc')];
    expect(new Set(ids).size).toBe(ids.length);
  });
});
