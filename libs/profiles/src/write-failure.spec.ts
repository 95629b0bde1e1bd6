import { classifyWriteFailure, postgresRefusal } from './write-failure';

describe('classifyWriteFailure', () => {
  it('blames the data for SQLSTATE classes 22, 23 and 54, also when wrapped; retries anything else', () => {
    expect(classifyWriteFailure({ code: '22P02' })).toBe('dead-letter');
    expect(classifyWriteFailure({ message: 'Failed query', cause: { code: '23503' } })).toBe('dead-letter');
    // program_limit_exceeded (an index row or a value too large), statement_too_complex.
    expect(classifyWriteFailure({ message: 'Failed query', cause: { code: '54000' } })).toBe('dead-letter');
    expect(classifyWriteFailure({ code: '54001' })).toBe('dead-letter');
    expect(classifyWriteFailure({ code: '08006' })).toBe('retry');
    expect(classifyWriteFailure({ code: '53200' })).toBe('retry');
    expect(classifyWriteFailure({ code: 'ECONNREFUSED' })).toBe('retry');
    expect(classifyWriteFailure(new Error('timeout'))).toBe('retry');
  });

  it("names the Postgres error under the driver's wrapping, and classifies the same", () => {
    const wrapped = {
      message: 'Failed query: insert into profiles … params: …',
      cause: { code: '54000', message: 'index row size 3224 exceeds btree version 4 maximum 2704' },
    };
    const refusal = postgresRefusal(wrapped);
    expect(refusal.message).toBe('SQLSTATE 54000: index row size 3224 exceeds btree version 4 maximum 2704');
    expect(classifyWriteFailure(refusal)).toBe('dead-letter');
    expect(postgresRefusal(new Error('timeout')).message).toBe('timeout');
  });
});
