import { EventsRepository } from '@analytics/event-store';
import { InProcessEventsWriter } from './events-writer';
import { WriterMetrics } from './writer-metrics';

/** The engine as the in-process writer sees it: one insert at a time, a poison row refuses its whole insert. */
class FakeEvents {
  readonly inserts: string[][] = [];
  readonly stored: string[] = [];
  down = false;
  private release: (() => void) | undefined;

  /** Holds the next insert until `resume`, so that requests arrive while it runs. */
  hold(): void {
    this.release = undefined;
    this.held = new Promise<void>((resolve) => (this.release = resolve));
  }

  resume(): void {
    this.release?.();
  }

  private held: Promise<void> | undefined;

  async insert(text: string): Promise<void> {
    const rows = text.split('\n').filter(Boolean);
    this.inserts.push(rows);
    const held = this.held;
    this.held = undefined;
    await held;
    if (this.down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8123'), { code: 'ECONNREFUSED' });
    if (rows.some((row) => row.includes('poison')))
      throw Object.assign(new Error('Cannot parse input'), { code: '27' });
    this.stored.push(...rows);
  }
}

const metrics = {
  insertSeconds: { startTimer: () => () => undefined },
  rowsInserted: { inc: () => undefined },
} as unknown as WriterMetrics;

const rows = (...names: string[]) => names.map((name) => `${name}\n`);
const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('InProcessEventsWriter', () => {
  let events: FakeEvents;
  let writer: InProcessEventsWriter;

  beforeEach(() => {
    events = new FakeEvents();
    writer = new InProcessEventsWriter(events as unknown as EventsRepository, metrics);
  });

  it('puts the requests that arrive during an insert into one insert, and answers each after its rows are stored', async () => {
    events.hold();
    const first = writer.write(rows('a1', 'a2'));
    await flush();
    const second = writer.write(rows('b1'));
    const third = writer.write(rows('c1', 'c2'));
    let secondDone = false;
    void second.then(() => (secondDone = true));
    await flush();
    expect(secondDone).toBe(false);
    events.resume();

    await expect(Promise.all([first, second, third])).resolves.toEqual([[], [], []]);
    expect(events.inserts).toEqual([
      ['a1', 'a2'],
      ['b1', 'c1', 'c2'],
    ]);
    expect(events.stored).toEqual(['a1', 'a2', 'b1', 'c1', 'c2']);
  });

  it('writes a shared insert the engine refuses again request by request: only the refused row fails, at its own position', async () => {
    events.hold();
    const first = writer.write(rows('a1'));
    await flush();
    const second = writer.write(rows('b1', 'poison-b2', 'b3'));
    const third = writer.write(rows('c1'));
    events.resume();

    expect(await first).toEqual([]);
    expect(await second).toEqual([{ position: 1, reason: 'Cannot parse input' }]);
    expect(await third).toEqual([]);
    expect([...events.stored].sort()).toEqual(['a1', 'b1', 'b3', 'c1']);
  });

  it('fails every request of a shared insert when the engine is unreachable, and writes later requests once it is back', async () => {
    events.hold();
    const first = writer.write(rows('a1'));
    await flush();
    events.down = true;
    const second = writer.write(rows('b1'));
    const third = writer.write(rows('c1'));
    events.resume();

    await expect(first).rejects.toThrow('ECONNREFUSED');
    await expect(second).rejects.toThrow('ECONNREFUSED');
    await expect(third).rejects.toThrow('ECONNREFUSED');
    events.down = false;
    await expect(writer.write(rows('d1'))).resolves.toEqual([]);
    expect(events.stored).toEqual(['d1']);
  });
});
