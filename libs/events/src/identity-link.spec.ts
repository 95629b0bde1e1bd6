import { distinctLinks, identityLinkOf, LinkSource } from './identity-link';
import { validateEvent } from './validate-event';

const source = (over: Partial<LinkSource>): LinkSource => ({
  projectId: 7,
  mode: 'original',
  policy: 'track',
  event: 'Viewed',
  properties: {},
  distinctId: 'd',
  timeMs: 1000,
  ...over,
});

describe('identityLinkOf', () => {
  it('simplified: an event with $user_id and $device_id links the device to the user', () => {
    expect(identityLinkOf(source({ mode: 'simplified', properties: { $user_id: 'u1', $device_id: 'abc' } }))).toEqual({
      projectId: 7,
      mode: 'simplified',
      a: '$device:abc',
      b: 'u1',
      timeMs: 1000,
    });
    expect(identityLinkOf(source({ mode: 'simplified', properties: { $device_id: 'abc' } }))).toBeUndefined();
    expect(identityLinkOf(source({ mode: 'simplified', properties: { $user_id: 'u1' } }))).toBeUndefined();
    expect(
      identityLinkOf(
        source({ mode: 'simplified', event: '$identify', properties: { $identified_id: 'u1', $anon_id: 'x' } }),
      ),
    ).toBeUndefined();
  });

  it('original: $identify (both spellings), $create_alias, and $merge only through /import, each link naming its event (its rule)', () => {
    expect(
      identityLinkOf(source({ event: '$identify', properties: { $identified_id: 'u1', $anon_id: 'a1' } })),
    ).toMatchObject({ kind: 'identify', a: 'a1', b: 'u1', identified: 'u1' });
    // The browser SDK: distinct_id is the new id, the previous one in $anon_distinct_id.
    expect(
      identityLinkOf(source({ event: '$identify', distinctId: 'u2', properties: { $anon_distinct_id: '$device:x' } })),
    ).toMatchObject({ kind: 'identify', a: '$device:x', b: 'u2', identified: 'u2' });
    expect(
      identityLinkOf(source({ event: '$create_alias', properties: { alias: 'u3', distinct_id: 'anon-3' } })),
    ).toMatchObject({ kind: 'alias', a: 'anon-3', b: 'u3', identified: 'u3' });
    const merge = { event: '$merge', properties: { $distinct_ids: ['m1', 'm2'] } };
    expect(identityLinkOf(source({ ...merge, policy: 'import' }))).toEqual({
      projectId: 7,
      mode: 'original',
      kind: 'merge',
      a: 'm1',
      b: 'm2',
      timeMs: 1000,
    });
    expect(identityLinkOf(source(merge))).toBeUndefined();
    expect(identityLinkOf(source({ event: 'Viewed', properties: { $user_id: 'u', $device_id: 'd' } }))).toBeUndefined();
  });

  it('links nothing from malformed ids: placeholders, the same id twice, three ids, objects, disabled mode', () => {
    expect(
      identityLinkOf(source({ event: '$identify', properties: { $identified_id: 'u1', $anon_id: 'undefined' } })),
    ).toBeUndefined();
    expect(
      identityLinkOf(source({ event: '$identify', properties: { $identified_id: 'u1', $anon_id: 'u1' } })),
    ).toBeUndefined();
    expect(
      identityLinkOf(source({ event: '$merge', policy: 'import', properties: { $distinct_ids: ['a', 'b', 'c'] } })),
    ).toBeUndefined();
    expect(
      identityLinkOf(source({ event: '$create_alias', properties: { alias: { id: 1 }, distinct_id: 'x' } })),
    ).toBeUndefined();
    expect(
      identityLinkOf(
        source({ mode: 'disabled', event: '$identify', properties: { $identified_id: 'u1', $anon_id: 'a' } }),
      ),
    ).toBeUndefined();
  });

  it('rides on the accepted row, with the event time', () => {
    const outcome = validateEvent(
      {
        event: 'Signed up',
        properties: { time: 1_700_000_000_000, $user_id: 'u9', $device_id: 'dev', $insert_id: 'i1' },
      },
      {
        projectId: 3,
        nowMs: 1_700_000_100_000,
        policy: 'import',
        requireInsertId: true,
        newInsertId: () => 'unused',
        identityMerge: 'simplified',
      },
    );
    expect(outcome.kind === 'accepted' && outcome.row.link).toEqual({
      projectId: 3,
      mode: 'simplified',
      a: '$device:dev',
      b: 'u9',
      timeMs: 1_700_000_000_000,
    });
  });
});

describe('distinctLinks', () => {
  it('keeps one link per pair of ids and event, at its earliest time, and every different one', () => {
    const link = (a: string, b: string, timeMs: number, identified?: string) => ({
      projectId: 7,
      mode: 'original' as const,
      a,
      b,
      timeMs,
      ...(identified ? { identified } : {}),
    });
    const merge = { ...link('d', 'u', 60), kind: 'merge' as const };
    expect(
      distinctLinks([
        link('d', 'u', 30),
        link('d', 'u', 10),
        link('d', 'u', 20),
        link('d', 'v', 40),
        link('d', 'u', 50, 'u'),
        merge,
      ]),
    ).toEqual([link('d', 'u', 10), link('d', 'v', 40), link('d', 'u', 50, 'u'), merge]);
  });
});
