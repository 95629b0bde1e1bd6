import { projectScope } from '@analytics/tenancy';
import { INSIGHTS_MATH } from '@analytics/report-definitions';
import { propertyExpression } from '../src/expressions/query-expressions';
import { referenceInsights } from '../src/insights/insights-reference';
import { InsightsSpec } from '../src/insights/insights-spec';
import { insightsResult } from '../src/insights/insights-tally';
import { InsightsRepository } from '../src/insights/insights.repository';
import { SERIES_UNITS } from '../src/time/series';
import { IdentityLink } from '@analytics/events';
import { resolveIdentities } from '../src/reference/resolve-identities';
import { JsonObject } from '@analytics/expression';
import { arrivalBatches, generateEvents, generateProfiles, PLAN_DAYS, withProfiles } from './support/generate-events';
import { applyLinks, generateLinks, identitiesOf } from './support/identity-links';
import { Random } from './support/random';
import { EVENT_NAMES, maybeSegmentOrUser, maybeWhereOrUser, pickZone } from './support/scenario-parts';
import { deduplicate, EventsStore, StoredEvent } from './support/stored-events';

/**
 * Insights SQL against the plain reference on generated scenarios (every math, identity merges arriving
 * out of order, `where` and `on` over the person's profile). Replay with QUERY_SEED=<seed>.
 */
const SEED = Number(process.env.QUERY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const SCENARIOS = Number(process.env.INSIGHTS_SCENARIOS ?? 100);
const NOW = Date.UTC(2024, 5, 1, 12);

function scenario(
  random: Random,
  project: number,
): {
  project: number;
  spec: InsightsSpec;
  events: StoredEvent[];
  links: IdentityLink[];
  profiles: Map<string, JsonObject>;
} {
  const fromDay = random.pick(PLAN_DAYS);
  const toDay = fromDay + random.int(0, 3);
  const zone = pickZone(random);
  const metrics = Array.from({ length: random.int(1, 3) }, (_, i) => {
    const math = random.pick(INSIGHTS_MATH);
    return {
      name: `m${i}`,
      event: random.pick(EVENT_NAMES),
      math,
      property:
        math === 'total' || math === 'unique' ? undefined : propertyExpression('property', random.pick(['n', 'plan'])),
      where: maybeWhereOrUser(random, 0.2),
    };
  });
  const spec: InsightsSpec = {
    metrics,
    fromDay,
    toDay,
    zone,
    unit: random.pick(SERIES_UNITS),
    on: maybeSegmentOrUser(random, 0.4),
    limit: random.pick([1, 2, 60]),
  };
  const users = random.int(1, 10);
  const events = generateEvents(random, {
    fromDay,
    toDay,
    users,
    maxEventsPerUser: random.int(1, 12),
    names: EVENT_NAMES,
    zone,
  });
  // Identity merges from a stream of their own, so the scenarios stay what they were without them.
  return {
    project,
    spec,
    events,
    links: generateLinks(new Random(SEED + project * 7), project, users, fromDay),
    profiles: generateProfiles(new Random(SEED + project * 11), users),
  };
}

describe(`insights: SQL and reference (QUERY_SEED=${SEED})`, () => {
  let store: EventsStore;
  const scenarios = Array.from({ length: SCENARIOS }, (_, i) => scenario(new Random(SEED + i), 4000 + i));

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
    for (const { project, profiles } of scenarios) await store.insertProfiles(project, profiles);
  });
  afterAll(() => store?.close());

  it(
    'agree on every generated scenario',
    async () => {
      const repository = new InsightsRepository(store.runner);
      const failures: string[] = [];
      for (const { project, spec, events, links, profiles } of scenarios) {
        const expected = insightsResult(
          spec,
          referenceInsights(withProfiles(resolveIdentities(deduplicate(events), identitiesOf(links)), profiles), spec),
          NOW,
        );
        const actual = insightsResult(spec, await repository.tally(projectScope(project), spec), NOW);
        if (JSON.stringify(actual) !== JSON.stringify(expected)) {
          failures.push(
            `QUERY_SEED=${SEED} scenario ${project - 4000}\nspec ${JSON.stringify(spec)}\nevents ${JSON.stringify(events)}\nreference ${JSON.stringify(expected)}\nSQL ${JSON.stringify(actual)}`,
          );
        }
      }
      expect(failures.slice(0, 2)).toEqual([]);
    },
    Math.max(60_000, SCENARIOS * 1_000),
  );
});
