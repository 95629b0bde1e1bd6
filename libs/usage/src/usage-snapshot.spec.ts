import { MAX_LABELLED_PROJECTS, usageSnapshot } from './usage-snapshot';

const oldest = new Date('2026-01-01T00:00:00Z');

describe('the usage gauges snapshot', () => {
  it("shares the table's bytes out by rows and joins projects that only hold profiles", () => {
    const snapshot = usageSnapshot(
      1,
      [
        { projectId: 1, events: 300, oldest },
        { projectId: 2, events: 100, oldest },
      ],
      4000,
      new Map([
        [2, { users: 5, groups: 1 }],
        [3, { users: 7, groups: 0 }],
      ]),
    );
    expect([...snapshot.projects]).toEqual([
      ['1', { events: 300, bytesOnDisk: 3000, profiles: 0, groups: 0, oldestEvent: oldest.getTime() / 1000 }],
      ['2', { events: 100, bytesOnDisk: 1000, profiles: 5, groups: 1, oldestEvent: oldest.getTime() / 1000 }],
      ['3', { events: 0, bytesOnDisk: 0, profiles: 7, groups: 0 }],
    ]);
  });

  it('labels the largest projects and sums the rest as other, so totals stay whole', () => {
    const count = MAX_LABELLED_PROJECTS + 3;
    const events = Array.from({ length: count }, (_, i) => ({
      projectId: i + 1,
      events: i + 1,
      oldest: new Date(Date.UTC(2026, 0, i + 1)),
    }));
    const { projects } = usageSnapshot(1, events, 0, new Map());
    expect(projects.size).toBe(MAX_LABELLED_PROJECTS + 1);
    expect(projects.has(String(count))).toBe(true);
    expect(projects.has('1')).toBe(false);
    expect(projects.get('other')).toEqual({
      events: 1 + 2 + 3,
      bytesOnDisk: 0,
      profiles: 0,
      groups: 0,
      oldestEvent: Date.UTC(2026, 0, 1) / 1000,
    });
  });
});
