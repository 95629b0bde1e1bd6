import { ManualClock, SystemClock } from '@analytics/clock';
import { encodeEventRow } from '@analytics/events';
import { ProjectScope, ScopedRows } from '@analytics/tenancy';
import { readLetter, screenLetter } from './dead-letter-contents';
import { DeletionScreen } from './deletion-screen';
import { Erasure, projectIdKey } from './erased-ids.repository';

const REQUESTED = Date.parse('2026-05-01T12:00:00Z');
const STARTED = REQUESTED + 30_000;
const REPLAYED = REQUESTED + 86_400_000;
const erasure: Erasure = { requestedAt: new Date(REQUESTED), startedAt: new Date(STARTED) };
const erasures = new Map([[projectIdKey({ projectId: 7, distinctId: 'alice' }), erasure]]);

const row = (distinctId: string, insertId: string, processedAtMs: number, properties: Record<string, unknown> = {}) =>
  encodeEventRow({
    projectId: 7,
    event: 'Played',
    timeMs: REQUESTED - 3_600_000,
    distinctId,
    insertId,
    properties,
    processedAtMs,
  }).line;
const lines = (value: string | Buffer | undefined) =>
  String(value ?? '')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('screening dead letters against finished deletions', () => {
  it("leaves out an erased id's events acknowledged before the request, stamps the rest with the replay's time", () => {
    const value = Buffer.from(
      row('alice', 'a-before', REQUESTED - 1) +
        row('bob', 'b1', REQUESTED - 1) +
        row('alice', 'a-after', REQUESTED + 5),
    );
    const screened = screenLetter(readLetter('events', value), REQUESTED, erasures, REPLAYED)!;
    expect(screened.rows).toBe(2);
    expect(screened.dropped).toEqual({ rows: 1, reason: 'a deletion erased the id' });
    expect(lines(screened.value).map((r) => [r.insert_id, r.processed_at])).toEqual([
      ['b1', String(REPLAYED / 1000) + '.000'],
      ['a-after', String(REPLAYED / 1000) + '.000'],
    ]);
    // Only erased rows: the letter is not sent at all.
    expect(
      screenLetter(readLetter('events', Buffer.from(row('alice', 'a1', REQUESTED - 1))), REQUESTED, erasures, REPLAYED),
    ).toEqual({ value: undefined, rows: 0, dropped: { rows: 1, reason: 'a deletion erased the id' } });
  });

  it('drops profile updates and identity links naming an erased id that were dead-lettered before the deletion began', () => {
    const update = (profileId: string, groupKey = '') =>
      Buffer.from(JSON.stringify({ projectId: 7, groupKey, profileId, op: '$set', properties: { a: 1 }, timeMs: 1 }));
    const link = (a: string, b: string) =>
      Buffer.from(JSON.stringify({ projectId: 7, mode: 'original', a, b, timeMs: 1 }));
    expect(screenLetter(readLetter('profiles', update('alice')), STARTED - 1, erasures, REPLAYED)?.dropped?.rows).toBe(
      1,
    );
    expect(screenLetter(readLetter('profiles', update('alice')), STARTED + 1, erasures, REPLAYED)).toBeUndefined();
    expect(
      screenLetter(readLetter('profiles', update('alice', 'company')), STARTED - 1, erasures, REPLAYED),
    ).toBeUndefined();
    expect(screenLetter(readLetter('profiles', update('bob')), STARTED - 1, erasures, REPLAYED)).toBeUndefined();
    expect(
      screenLetter(readLetter('identities', link('$device:x', 'alice')), STARTED - 1, erasures, REPLAYED)?.dropped
        ?.rows,
    ).toBe(1);
    expect(
      screenLetter(readLetter('identities', link('$device:y', 'bob')), STARTED - 1, erasures, REPLAYED),
    ).toBeUndefined();
    expect(
      screenLetter(readLetter('identities', Buffer.from('not json')), STARTED - 1, erasures, REPLAYED),
    ).toBeUndefined();
  });

  it("waits for a deletion of the batch's project that has not started, then screens with what it covered", async () => {
    let pending = 2;
    const seen: { projectId: number; distinctIds: string[] }[] = [];
    const lookup = {
      unstarted: async (scopes: ProjectScope[]) =>
        pending-- > 0 ? scopes.map((scope) => ({ id: 'job-1', projectId: scope.projectId })) : [],
      covering: async (groups: ScopedRows<string>[]) => (
        seen.push(...groups.map(({ scope, rows }) => ({ projectId: scope.projectId, distinctIds: [...rows] }))),
        erasures
      ),
    };
    let beats = 0;
    const { screen } = new DeletionScreen(lookup, new ManualClock(REPLAYED), { pollMs: 1 });
    const value = Buffer.from(row('alice', 'a1', REQUESTED - 1) + row('bob', 'b1', REQUESTED - 1));
    const [screened] = await screen(
      'events',
      [{ value, timestamp: String(REQUESTED), offset: '0' } as never],
      async () => void beats++,
    );
    expect(beats).toBe(2);
    expect(seen).toEqual([{ projectId: 7, distinctIds: ['alice', 'bob'] }]);
    expect(lines(screened!.value).map((r) => r.insert_id)).toEqual(['b1']);

    const stuck = new DeletionScreen(
      { ...lookup, unstarted: async () => [{ id: 'job-2', projectId: 7 }] },
      new SystemClock(),
      { waitMs: 0 },
    );
    await expect(
      stuck.screen('events', [{ value, timestamp: '0', offset: '0' } as never], async () => undefined),
    ).rejects.toThrow(/job-2 \(project 7\) have not started/);
  });
});
