import { DescribedEvent, seenDictionary } from './seen-dictionary';

describe('seenDictionary', () => {
  it('lists received events first, then described ones not received, with both kinds of properties', () => {
    const described: DescribedEvent[] = [
      { name: 'Zed', schema: { properties: { a: { type: 'string' } } } },
      {
        name: 'Signup',
        schema: {
          metadata: { 'com.mixpanel': { hidden: true } },
          properties: { plan: { type: 'string', metadata: { 'com.mixpanel': { dropped: true } } } },
        },
      },
      { name: 'Alpha', schema: {} },
    ];
    const seen = [
      { name: 'Played', count: 10, properties: ['level'] },
      { name: 'Signup', count: 3, properties: ['source'] },
    ];
    expect(seenDictionary(described, seen)).toEqual([
      {
        name: 'Played',
        count: 10,
        described: false,
        hidden: false,
        dropped: false,
        properties: [{ name: 'level', seen: true, described: false, hidden: false, dropped: false }],
      },
      {
        name: 'Signup',
        count: 3,
        described: true,
        hidden: true,
        dropped: false,
        properties: [
          { name: 'plan', seen: false, described: true, hidden: false, dropped: true },
          { name: 'source', seen: true, described: false, hidden: false, dropped: false },
        ],
      },
      { name: 'Alpha', count: 0, described: true, hidden: false, dropped: false, properties: [] },
      {
        name: 'Zed',
        count: 0,
        described: true,
        hidden: false,
        dropped: false,
        properties: [{ name: 'a', seen: false, described: true, hidden: false, dropped: false }],
      },
    ]);
  });
});
