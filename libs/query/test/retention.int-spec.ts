import { projectScope } from '@analytics/tenancy';
import { addictionResult, AddictionSpec, referenceAddiction } from '../src/retention/addiction';
import { referenceRetention } from '../src/retention/retention-reference';
import { RetentionSpec } from '../src/retention/retention-spec';
import { retentionResult } from '../src/retention/retention-tally';
import { RetentionRepository } from '../src/retention/retention.repository';
import { IdentityLink } from '@analytics/events';
import { resolveIdentities } from '../src/reference/resolve-identities';
import { arrivalBatches, generateEvents, PLAN_DAYS } from './support/generate-events';
import { applyLinks, generateLinks, identitiesOf } from './support/identity-links';
import { Random } from './support/random';
import { BUCKETS, EVENT_NAMES, maybeWhere, pickZone } from './support/scenario-parts';
import { deduplicate, EventsStore, StoredEvent } from './support/stored-events';

/**
 * Retention SQL against the plain reference on generated scenarios (birth and compounded, bounded
 * and unbounded, births before the range, returns after it, same-instant births and returns).
 * Replay a failure with QUERY_SEED=<the seed printed>.
 */
const SEED = Number(process.env.QUERY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const SCENARIOS = Number(process.env.RETENTION_SCENARIOS ?? 100);

interface Scenario {
  project: number;
  spec: RetentionSpec;
  /** The same events through /retention/addiction. */
  addiction: AddictionSpec;
  events: StoredEvent[];
  /** Identity merges among its users, applied out of order. */
  links: IdentityLink[];
}

function scenario(random: Random, project: number): Scenario {
  const fromDay = random.pick(PLAN_DAYS);
  const toDay = fromDay + random.int(0, 5);
  const zone = pickZone(random);
  const type = random.chance(0.6) ? 'birth' : 'compounded';
  const spec: RetentionSpec = {
    type,
    bornEvent: type === 'birth' ? random.pick(EVENT_NAMES.slice(0, 2)) : undefined,
    event: random.chance(0.85) ? random.pick(EVENT_NAMES.slice(0, 2)) : undefined,
    bornWhere: maybeWhere(random, 0.2, 'born_where'),
    where: maybeWhere(random, 0.2),
    fromDay,
    toDay,
    zone,
    buckets: random.pick(BUCKETS),
    intervalCount: random.int(0, 4),
    unbounded: random.chance(0.4),
  };
  const users = random.int(1, 10);
  const events = generateEvents(random, {
    fromDay: fromDay - 3,
    toDay: toDay + 8,
    users,
    maxEventsPerUser: random.int(1, 10),
    names: EVENT_NAMES,
    zone,
  });
  // Identity merges from a stream of their own, so the scenarios stay what they were without them.
  const links = generateLinks(new Random(SEED + project * 7), project, users, fromDay);
  const addiction: AddictionSpec = {
    event: spec.event,
    where: spec.where,
    fromDay,
    toDay,
    zone,
    unit: random.pick(['day', 'week', 'month'] as const),
    addictionUnit: random.pick(['hour', 'day'] as const),
  };
  return { project, spec, addiction, events, links };
}

describe(`retention: SQL and reference (QUERY_SEED=${SEED})`, () => {
  let store: EventsStore;
  const scenarios = Array.from({ length: SCENARIOS }, (_, i) => scenario(new Random(SEED + i), 2000 + i));

  beforeAll(async () => {
    store = await EventsStore.create();
    await store.insert(
      arrivalBatches(
        new Random(SEED),
        scenarios.flatMap(({ project, events }) => events.map((event) => [project, event] as const)),
      ),
    );
    await applyLinks(
      store,
      new Random(SEED + 1),
      scenarios.flatMap((s) => s.links),
    );
  });
  afterAll(() => store?.close());

  it(
    'agree on every generated scenario',
    async () => {
      const repository = new RetentionRepository(store.runner);
      const failures: string[] = [];
      for (const { project, spec, addiction, events, links } of scenarios) {
        const deduplicated = resolveIdentities(deduplicate(events), identitiesOf(links));
        const pairs = [
          [
            retentionResult(spec, await repository.cohorts(projectScope(project), spec)),
            retentionResult(spec, referenceRetention(deduplicated, spec)),
          ],
          [
            addictionResult(addiction, await repository.addiction(projectScope(project), addiction)),
            addictionResult(addiction, referenceAddiction(deduplicated, addiction)),
          ],
        ];
        for (const [actual, expected] of pairs) {
          if (JSON.stringify(actual) !== JSON.stringify(expected)) {
            failures.push(
              `QUERY_SEED=${SEED} scenario ${project - 2000}\nspec ${JSON.stringify(spec)}\nevents ${JSON.stringify(events)}\nreference ${JSON.stringify(expected)}\nSQL ${JSON.stringify(actual)}`,
            );
          }
        }
      }
      expect(failures.slice(0, 2)).toEqual([]);
    },
    Math.max(60_000, SCENARIOS * 1_000),
  );
});
