import { randomUUID } from 'node:crypto';
import { validateEvent } from '@analytics/events';
import { buildEventDictionary, DropCounter } from './event-dictionary';

const counter = () => {
  const counts = { events: 0, properties: 0 };
  const dropCounter: DropCounter = { eventDropped: () => counts.events++, propertyDropped: () => counts.properties++ };
  return { counts, dropCounter };
};

const event = (name: string, properties: Record<string, unknown>) => ({
  event: name,
  properties: { time: 1_700_000_000, distinct_id: 'u1', ...properties },
});

describe('buildEventDictionary', () => {
  it('is undefined when nothing is dropped, so validation does no lookups', () => {
    expect(
      buildEventDictionary([{ event: 'A', dropped: false, droppedProperties: [] }], counter().dropCounter),
    ).toBeUndefined();
  });

  it('drops events and properties through the ingestion validator, counting exactly what it left out', () => {
    const { counts, dropCounter } = counter();
    const dictionary = buildEventDictionary(
      [
        { event: 'Noise', dropped: true, droppedProperties: [] },
        { event: 'Signup', dropped: false, droppedProperties: ['password', 'ssn'] },
      ],
      dropCounter,
    );
    const context = {
      projectId: 1,
      nowMs: 1_700_000_100_000,
      policy: 'import' as const,
      requireInsertId: false,
      newInsertId: randomUUID,
      dictionary,
    };
    expect(validateEvent(event('Noise', { a: 1 }), context)).toEqual({ kind: 'skipped', reason: 'dropped' });
    const signup = validateEvent(
      event('Signup', { password: 'x', plan: 'pro', ssn: '1', time: 1_700_000_000 }),
      context,
    );
    expect(signup.kind).toBe('accepted');
    const row = JSON.parse(signup.kind === 'accepted' ? signup.row.line : '{}') as {
      properties: Record<string, unknown>;
    };
    expect(row.properties).toEqual({ plan: 'pro' });
    const other = validateEvent(event('Login', { password: 'x' }), context);
    expect(other.kind === 'accepted' && JSON.parse(other.row.line).properties).toEqual({ password: 'x' });
    expect(counts).toEqual({ events: 1, properties: 2 });
  });

  it('drops nothing from an event marked $ignore (it is ignored, not dropped)', () => {
    const { counts, dropCounter } = counter();
    const dictionary = buildEventDictionary([{ event: 'Noise', dropped: true, droppedProperties: [] }], dropCounter);
    const outcome = validateEvent(event('Noise', { $ignore: true }), {
      projectId: 1,
      nowMs: 1_700_000_100_000,
      policy: 'import',
      requireInsertId: false,
      newInsertId: randomUUID,
      dictionary,
    });
    expect(outcome).toEqual({ kind: 'skipped', reason: 'ignored' });
    expect(counts.events).toBe(0);
  });
});
