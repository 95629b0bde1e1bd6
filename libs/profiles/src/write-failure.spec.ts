import { classifyWriteFailure } from './write-failure';

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
});
