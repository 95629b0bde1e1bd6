import { decodeLink, encodeLink, linkPartition } from './identity-link-message';

describe('identity link messages', () => {
  it('round-trip a link, with and without its identified id and the event it came from', () => {
    const link = {
      projectId: 9,
      mode: 'original' as const,
      kind: 'identify' as const,
      a: 'anon',
      b: 'user',
      identified: 'user',
      timeMs: 1_700_000_000_123,
    };
    expect(decodeLink(Buffer.from(encodeLink(link)))).toEqual(link);
    // A message from before the merge rules has no kind: applied as a $merge, as when it was sent.
    expect(decodeLink('{"projectId":9,"mode":"original","a":"x","b":"y","timeMs":1}')).toEqual({
      projectId: 9,
      mode: 'original',
      a: 'x',
      b: 'y',
      timeMs: 1,
    });
    const device = { projectId: 9, mode: 'simplified' as const, a: '$device:x', b: 'user', timeMs: 5 };
    expect(decodeLink(encodeLink(device))).toEqual(device);
  });

  it('refuse what is not a link (it is dead-lettered with the reason)', () => {
    for (const value of [
      '{}',
      '[1]',
      '{"projectId":1,"mode":"other","a":"x","b":"y","timeMs":1}',
      '{"projectId":1,"mode":"original","a":"x","b":2,"timeMs":1}',
      '{"projectId":1,"mode":"original","kind":"join","a":"x","b":"y","timeMs":1}',
    ]) {
      expect(() => decodeLink(value)).toThrow('not an identity link');
    }
    expect(() => decodeLink('not json')).toThrow();
    // A project id no project can have is malformed too: dead-lettered, not retried against the store.
    for (const projectId of [0, -1, 2 ** 31, 2 ** 32]) {
      expect(() => decodeLink(JSON.stringify({ projectId, mode: 'original', a: 'x', b: 'y', timeMs: 1 }))).toThrow(
        'not an identity link',
      );
    }
  });

  it("put all of a project's links on one partition", () => {
    expect(linkPartition(7, 4)).toBe(linkPartition(7, 4));
    expect(new Set([1, 2, 3, 4].map((p) => linkPartition(p, 4))).size).toBe(4);
  });
});
