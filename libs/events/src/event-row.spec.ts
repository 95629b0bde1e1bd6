import { encodeEventRow, withProcessedAt } from './event-row';

describe('withProcessedAt', () => {
  it('sets the row’s own processed_at and nothing else, whatever the properties hold', () => {
    const properties = { processed_at: 'x', s: '"}{,"processed_at":"1.000"}', n: JSON.rawJSON('12345678901234567890') };
    const { line } = encodeEventRow({
      projectId: 7,
      event: 'e',
      timeMs: 1_000,
      distinctId: 'd',
      insertId: 'i',
      properties,
      processedAtMs: 1_000,
    });
    const stamped = withProcessedAt(line, 2_500)!;
    expect(stamped).toBe(line.replace('"processed_at":"1.000"}\n', '"processed_at":"2.500"}\n'));
    expect(JSON.parse(stamped)).toMatchObject({
      processed_at: '2.500',
      properties: { processed_at: 'x', s: '"}{,"processed_at":"1.000"}' },
    });
    expect(stamped).toContain('"n":12345678901234567890');
    expect(withProcessedAt(line.trimEnd(), 2_500)).toBe(stamped.trimEnd());
  });

  it('leaves a line that does not end as the rows do', () => {
    expect(withProcessedAt('{"a":1}', 2_000)).toBeUndefined();
    expect(withProcessedAt('{"processed_at":"1.000","a":1}', 2_000)).toBeUndefined();
  });
});
