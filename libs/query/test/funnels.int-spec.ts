import { DAY_MS } from '../src/time/utc-days';
import { referenceFunnel } from '../src/funnels/funnel-reference';
import { FunnelSpec } from '../src/funnels/funnel-spec';
import { funnelResult } from '../src/funnels/funnel-tally';
import { FunnelsRepository } from '../src/funnels/funnels.repository';
import { arrivalBatches, generateEvents, PLAN_DAYS } from './support/generate-events';
import { Random } from './support/random';
import { BUCKETS, EVENT_NAMES, maybeSegment, maybeWhere } from './support/scenario-parts';
import { deduplicate, EventsStore, StoredEvent } from './support/stored-events';

/**
 * The funnel SQL against the plain reference on generated scenarios: ties, repeated steps, exact
 * duplicates, out-of-order arrival, window edges and buckets around UTC midnights.
 * Replay a failure with QUERY_SEED=<the seed printed>; soak with FUNNEL_SCENARIOS=<many>.
 */
const SEED = Number(process.env.QUERY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const SCENARIOS = Number(process.env.FUNNEL_SCENARIOS ?? 100);
const WINDOWS = [1_000, 60_000, 3_600_000, DAY_MS, 2 * DAY_MS];

interface Scenario {
  project: number;
  spec: FunnelSpec;
  events: StoredEvent[];
}

function scenario(random: Random, project: number): Scenario {
  const fromDay = random.pick(PLAN_DAYS);
  const toDay = fromDay + random.int(0, 4);
  const windowMs = random.pick(WINDOWS);
  const steps = Array.from({ length: random.int(2, 4) }, (_, i) => ({ event: random.pick(EVENT_NAMES.slice(0, 3)), where: maybeWhere(random, 0.2, `steps[${i}].where`) }));
  const spec: FunnelSpec = {
    steps,
    filters: [maybeWhere(random, 0.15), maybeWhere(random, 0.1)].filter((e) => e !== undefined),
    windowMs,
    fromDay,
    toDay,
    buckets: random.pick(BUCKETS),
    on: maybeSegment(random, 0.4),
    limit: random.pick([1, 2, 255]),
  };
  const events = generateEvents(random, { fromDay, toDay, users: random.int(1, 12), maxEventsPerUser: random.int(1, 9), names: EVENT_NAMES, windowMs });
  return { project, spec, events };
}

describe(`funnels: SQL and reference (QUERY_SEED=${SEED})`, () => {
  let store: EventsStore;
  const scenarios = Array.from({ length: SCENARIOS }, (_, i) => scenario(new Random(SEED + i), 1000 + i));

  beforeAll(async () => {
    store = await EventsStore.create();
    const random = new Random(SEED);
    await store.insert(arrivalBatches(random, scenarios.flatMap(({ project, events }) => events.map((event) => [project, event] as const))));
  });
  afterAll(() => store?.close());

  it('agree on every generated scenario', async () => {
    const repository = new FunnelsRepository(store.runner);
    const failures: string[] = [];
    for (const { project, spec, events } of scenarios) {
      const expected = funnelResult(spec, referenceFunnel(deduplicate(events), spec));
      const actual = funnelResult(spec, await repository.tally(project, spec));
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        failures.push(`QUERY_SEED=${SEED} scenario ${project - 1000}\nspec ${JSON.stringify(spec)}\nevents ${JSON.stringify(events)}\nreference ${JSON.stringify(expected)}\nSQL ${JSON.stringify(actual)}`);
      }
    }
    expect(failures.slice(0, 2)).toEqual([]);
  }, Math.max(60_000, SCENARIOS * 1_000));
});
