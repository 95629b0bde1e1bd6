import { CLICKHOUSE_MEMORY_LIMIT_EXCEEDED, clickHouseErrorCode } from '@analytics/clickhouse';
import { IdentityLink } from '@analytics/events';
import { projectScope } from '@analytics/tenancy';
import { QueryRunner } from '../src/clickhouse/query-runner';
import { TimeZone } from '../src/time/time-zone';
import { FLOW_DIRECTIONS, FlowsSpec } from '../src/flows/flows-spec';
import { referenceFlows } from '../src/flows/flows-reference';
import { flowsResult } from '../src/flows/flows-tally';
import { FlowsRepository } from '../src/flows/flows.repository';
import { loadQuerySettings } from '../src/query-settings';
import { resolveIdentities } from '../src/reference/resolve-identities';
import { arrivalBatches, generateEvents, PLAN_DAYS } from './support/generate-events';
import { applyLinks, generateLinks, identitiesOf } from './support/identity-links';
import { Random } from './support/random';
import { EVENT_NAMES, maybeWhere } from './support/scenario-parts';
import { deduplicate, EventsStore, StoredEvent } from './support/stored-events';

/**
 * The flows SQL against the plain reference on generated scenarios: ties at one millisecond (the
 * anchor's own among them), repeats, exact duplicates, out-of-order arrival, range edges at UTC
 * midnights, a `where` on the anchor, both directions, and identity merges. Replay a failure with
 * QUERY_SEED=<the seed printed>; soak with FLOWS_SCENARIOS=<many>.
 */
const SEED = Number(process.env.QUERY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const SCENARIOS = Number(process.env.FLOWS_SCENARIOS ?? 100);
/** A project of its own for the memory cap, with many more events than the scenarios'. */
const MEMORY_PROJECT = 2999;

interface Scenario {
  project: number;
  spec: FlowsSpec;
  events: StoredEvent[];
  links: IdentityLink[];
}

function scenario(random: Random, project: number): Scenario {
  const fromDay = random.pick(PLAN_DAYS);
  const spec: FlowsSpec = {
    event: random.pick(EVENT_NAMES.slice(0, 3)),
    direction: random.pick(FLOW_DIRECTIONS),
    steps: random.int(1, 5),
    // The range's edges on the zone's clocks (the only thing the zone changes in a flow).
    zone: TimeZone.of(random.pick(['UTC', 'Europe/Berlin', 'Asia/Kolkata'])),
    fromDay,
    toDay: fromDay + random.int(0, 3),
    where: maybeWhere(random, 0.3),
    limit: random.pick([1, 2, 3, 10]),
  };
  const users = random.int(1, 15);
  const events = generateEvents(random, {
    fromDay,
    toDay: spec.toDay,
    users,
    maxEventsPerUser: random.int(1, 12),
    names: EVENT_NAMES,
  });
  return { project, spec, events, links: generateLinks(new Random(SEED + project * 7), project, users, fromDay) };
}

/** The scenarios on which the SQL through `runner` and the reference disagree (the first two). */
async function disagreements(runner: QueryRunner, scenarios: readonly Scenario[]): Promise<string[]> {
  const repository = new FlowsRepository(runner);
  const failures: string[] = [];
  for (const { project, spec, events, links } of scenarios) {
    const expected = flowsResult(
      spec,
      referenceFlows(resolveIdentities(deduplicate(events), identitiesOf(links)), spec),
    );
    const actual = flowsResult(spec, await repository.tally(projectScope(project), spec));
    if (JSON.stringify(actual) !== JSON.stringify(expected))
      failures.push(
        `QUERY_SEED=${SEED} scenario ${project - 2000}\nspec ${JSON.stringify(spec)}\nevents ${JSON.stringify(events)}\nlinks ${JSON.stringify(links.slice(0, 50))}\nreference ${JSON.stringify(expected)}\nSQL ${JSON.stringify(actual)}`,
      );
  }
  return failures.slice(0, 2);
}

describe(`flows: SQL and reference (QUERY_SEED=${SEED})`, () => {
  let store: EventsStore;
  const scenarios = Array.from({ length: SCENARIOS }, (_, i) => scenario(new Random(SEED + i), 2000 + i));

  beforeAll(async () => {
    store = await EventsStore.create();
    const random = new Random(SEED);
    await store.insert(
      arrivalBatches(
        random,
        scenarios.flatMap(({ project, events }) => events.map((event) => [project, event] as const)),
      ),
    );
    await applyLinks(
      store,
      random,
      scenarios.flatMap((s) => s.links),
    );
  });
  afterAll(() => store?.close());

  it(
    'agree on every generated scenario',
    async () => {
      expect(await disagreements(store.runner, scenarios)).toEqual([]);
    },
    Math.max(60_000, SCENARIOS * 1_000),
  );

  it(
    'agree on every generated scenario through the join with identity_map, as on a cluster',
    async () => {
      const joined = new QueryRunner(store.client, { ...loadQuerySettings({}), identityLookup: false });
      expect(await disagreements(joined, scenarios)).toEqual([]);
    },
    Math.max(60_000, SCENARIOS * 1_000),
  );

  it('stops at the memory cap (QUERY_MAX_MEMORY_MB), and answers under the default one', async () => {
    // 200k events of 20k people, made inside ClickHouse: far past a 1 MiB cap, far under the default one.
    await store.client.command({
      query: `INSERT INTO events (project_id, event, time, distinct_id, insert_id, properties, processed_at)
        SELECT {project:UInt32}, ['A', 'B', 'C', 'D'][1 + number % 4], toDateTime64('2024-01-27 00:00:00', 3, 'UTC') + toIntervalSecond(number),
          concat('p', toString(number % 20000)), toString(number), '{}', now64(3)
        FROM numbers(200000)`,
      query_params: { project: MEMORY_PROJECT },
    });
    const spec: FlowsSpec = {
      event: 'A',
      direction: 'after',
      steps: 3,
      zone: TimeZone.UTC,
      fromDay: PLAN_DAYS[0],
      toDay: PLAN_DAYS[0] + 3,
      limit: 10,
    };
    const capped = new QueryRunner(store.client, { ...loadQuerySettings({}), maxMemoryBytes: 1024 ** 2 });
    const refused = await new FlowsRepository(capped)
      .tally(projectScope(MEMORY_PROJECT), spec)
      .catch((e: unknown) => e);
    expect(clickHouseErrorCode(refused)).toBe(CLICKHOUSE_MEMORY_LIMIT_EXCEEDED);
    const repository = new FlowsRepository(store.runner);
    await expect(repository.tally(projectScope(MEMORY_PROJECT), spec)).resolves.toMatchObject({ people: 5000 });
  });
});
