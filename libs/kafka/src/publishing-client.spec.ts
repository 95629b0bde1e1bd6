import { explainedError, retriesWithin } from './publishing-client';

describe('retriesWithin', () => {
  it('counts the retries whose doubling waits (200 ms up to 3 s) cover the time given', () => {
    // 200 + 400 + 800 + 1600 = 3000; then 3000 each.
    expect(retriesWithin(3_000)).toBe(4);
    expect(retriesWithin(3_001)).toBe(5);
    expect(retriesWithin(15_000)).toBe(8);
  });

  it('never asks for fewer than two, which the client would take for retrying without end', () => {
    expect(retriesWithin(1)).toBe(2);
    expect(retriesWithin(0)).toBe(2);
  });
});

describe('explainedError', () => {
  it("says what the client's nested errors say at their innermost, each once", () => {
    const tooLarge = new Error(
      'The request included a message larger than the max message size the server will accept.',
    );
    const refused = new Error('Connection error', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9093') });
    const nested = new AggregateError(
      [
        new AggregateError([tooLarge], 'Received response with error while executing API Produce(v9)'),
        tooLarge,
        refused,
      ],
      'Producing messages failed.',
    );
    const error = explainedError(nested);
    expect(error.message).toBe(
      'The request included a message larger than the max message size the server will accept.; connect ECONNREFUSED 127.0.0.1:9093',
    );
    expect(error.cause).toBe(nested);
  });

  it('keeps a plain error as it is', () => {
    expect(explainedError(new Error('Request timed out')).message).toBe('Request timed out');
    expect(explainedError('closed').message).toBe('closed');
  });
});
