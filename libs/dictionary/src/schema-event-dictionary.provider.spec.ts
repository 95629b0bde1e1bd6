import { ManualClock } from '@analytics/clock';
import { projectScope } from '@analytics/tenancy';
import { DictionarySettings } from './dictionary-settings';
import { DroppedDataMetrics } from './dropped-data.metrics';
import { DroppingRule } from './event-dictionary';
import { SchemaEventDictionaryProvider } from './schema-event-dictionary.provider';
import { SchemasRepository } from './schemas.repository';

/** A repository whose reads resolve when the test says so. */
class ControlledRules {
  rules: DroppingRule[] = [];
  reads = 0;
  failing = false;
  private pending: (() => void)[] = [];

  droppingRules(): Promise<DroppingRule[]> {
    this.reads++;
    const snapshot = this.rules;
    const failing = this.failing;
    return new Promise((resolve, reject) =>
      this.pending.push(() => (failing ? reject(new Error('connection refused')) : resolve(snapshot))),
    );
  }

  settle(): void {
    this.pending.splice(0).forEach((finish) => finish());
  }
}

const noise: DroppingRule = { event: 'Noise', dropped: true, droppedProperties: [] };
const counting = { eventDropped: () => undefined, propertyDropped: () => undefined } as unknown as DroppedDataMetrics;

describe('SchemaEventDictionaryProvider', () => {
  let clock: ManualClock;
  let rules: ControlledRules;
  let provider: SchemaEventDictionaryProvider;

  beforeEach(() => {
    clock = new ManualClock(1_000_000);
    rules = new ControlledRules();
    provider = new SchemaEventDictionaryProvider(
      rules as unknown as SchemasRepository,
      new DictionarySettings(5, 2000, 30),
      clock,
      counting,
    );
  });

  const ask = async (projectId = 1) => {
    const answer = provider.forProject(projectScope(projectId));
    rules.settle();
    return answer;
  };

  it('shares one read between concurrent requests and trusts it for the TTL from when the read began', async () => {
    rules.rules = [noise];
    const both = Promise.all([provider.forProject(projectScope(1)), provider.forProject(projectScope(1))]);
    clock.advance(500); // the read takes half a second
    rules.settle();
    const [a, b] = await both;
    expect(a).toBe(b);
    expect(a?.isEventDropped('Noise')).toBe(true);
    expect(rules.reads).toBe(1);

    rules.rules = [];
    clock.advance(1499); // 1999 ms after the read began
    expect((await ask())?.isEventDropped('Noise')).toBe(true);
    expect(rules.reads).toBe(1);
    clock.advance(1); // 2000 ms: a change committed just after the read began is seen now
    expect(await ask()).toBeUndefined();
    expect(rules.reads).toBe(2);
  });

  it('re-reads at once after an invalidation, and never stores a read that began before it', async () => {
    expect(await ask()).toBeUndefined();
    clock.advance(3000);
    const stale = provider.forProject(projectScope(1)); // began before the change below was committed
    rules.rules = [noise];
    provider.invalidate(projectScope(1));
    const fresh = provider.forProject(projectScope(1));
    rules.settle();
    expect(await stale).toBeUndefined(); // it read the old state (the fake snapshot)…
    expect((await fresh)?.isEventDropped('Noise')).toBe(true);
    expect((await ask())?.isEventDropped('Noise')).toBe(true); // …and the cache holds the fresh one
    expect(rules.reads).toBe(3);
  });

  it('keeps serving the last copy while Postgres fails, and fails when it never had one', async () => {
    rules.failing = true;
    await expect(ask(2)).rejects.toThrow('connection refused');
    rules.failing = false;
    rules.rules = [noise];
    expect((await ask(1))?.isEventDropped('Noise')).toBe(true);
    rules.failing = true;
    clock.advance(5000);
    expect((await ask(1))?.isEventDropped('Noise')).toBe(true);
    expect(rules.reads).toBe(3);
    expect((await ask(1))?.isEventDropped('Noise')).toBe(true); // no new attempt for a second
    expect(rules.reads).toBe(3);
  });

  it('keeps projects apart', async () => {
    rules.rules = [noise];
    expect((await ask(1))?.isEventDropped('Noise')).toBe(true);
    rules.rules = [];
    expect(await ask(2)).toBeUndefined();
  });
});
