import { EVENTS_TABLE } from '@analytics/event-store';
import { CLICKHOUSE_MIGRATIONS } from '@analytics/runtime';
import { projectScope } from '@analytics/tenancy';
import { QueryRunner } from '../src/clickhouse/query-runner';
import { loadQuerySettings } from '../src/query-settings';
import { DAY_MS } from '../src/time/utc-days';
import { referenceFunnel } from '../src/funnels/funnel-reference';
import { FunnelSpec } from '../src/funnels/funnel-spec';
import { funnelResult } from '../src/funnels/funnel-tally';
import { FunnelsRepository } from '../src/funnels/funnels.repository';
import { IdentityLink, MAX_CLUSTER_IDS } from '@analytics/events';
import { IdentityRepository } from '@analytics/identity';
import { resolveIdentities } from '../src/reference/resolve-identities';
import { arrivalBatches, generateEvents, PLAN_DAYS } from './support/generate-events';
import { applyLinks, fullClusterLinks, generateLinks, identitiesOf } from './support/identity-links';
import { Random } from './support/random';
import { BUCKETS, EVENT_NAMES, maybeSegment, maybeWhere, pickZone } from './support/scenario-parts';
import { deduplicate, EventsStore, StoredEvent } from './support/stored-events';

/**
 * The funnel SQL against the plain reference on generated scenarios: ties, repeated steps, exact
 * duplicates, out-of-order arrival, window edges and buckets around midnights (in UTC and in zones
 * across daylight-saving changes, windows in days on their clocks), and identity
 * merges (chains, merges arriving out of order, and one project at the 500-id limit).
 * Replay a failure with QUERY_SEED=<the seed printed>; soak with FUNNEL_SCENARIOS=<many>.
 */
const SEED = Number(process.env.QUERY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const SCENARIOS = Number(process.env.FUNNEL_SCENARIOS ?? 100);
/** The scenario whose users sit in clusters at the 500-id limit (links applied in order). */
const LIMIT_PROJECT = 1000;
const WINDOWS = [1_000, 60_000, 3_600_000, DAY_MS, 2 * DAY_MS];

interface Scenario {
  project: number;
  spec: FunnelSpec;
  events: StoredEvent[];
  links: IdentityLink[];
}

function scenario(random: Random, project: number): Scenario {
  const fromDay = random.pick(PLAN_DAYS);
  const toDay = fromDay + random.int(0, 4);
  const zone = pickZone(random);
  const windowMs = random.pick(WINDOWS);
  const steps = Array.from({ length: random.int(2, 4) }, (_, i) => ({
    event: random.pick(EVENT_NAMES.slice(0, 3)),
    where: maybeWhere(random, 0.2, `steps[${i}].where`),
  }));
  const spec: FunnelSpec = {
    steps,
    filters: [maybeWhere(random, 0.15), maybeWhere(random, 0.1)].filter((e) => e !== undefined),
    windowMs,
    calendarWindow: windowMs % DAY_MS === 0 && !zone.isUtc,
    fromDay,
    toDay,
    zone,
    buckets: random.pick(BUCKETS),
    on: maybeSegment(random, 0.4),
    limit: random.pick([1, 2, 255]),
  };
  const users = project === LIMIT_PROJECT ? random.int(4, 12) : random.int(1, 12);
  const events = generateEvents(random, {
    fromDay,
    toDay,
    users,
    maxEventsPerUser: random.int(1, 9),
    names: EVENT_NAMES,
    windowMs,
    zone,
  });
  // A stream of its own, so the scenarios stay what they were without merges.
  const links =
    project === LIMIT_PROJECT
      ? fullClusterLinks(project)
      : generateLinks(new Random(SEED + project * 7), project, users, fromDay);
  return { project, spec, events, links };
}

/** The scenarios on which the SQL through `runner` and the reference disagree (the first two). */
async function disagreements(runner: QueryRunner, scenarios: readonly Scenario[]): Promise<string[]> {
  const repository = new FunnelsRepository(runner);
  const failures: string[] = [];
  for (const { project, spec, events, links } of scenarios) {
    const expected = funnelResult(
      spec,
      referenceFunnel(resolveIdentities(deduplicate(events), identitiesOf(links)), spec),
    );
    const actual = funnelResult(spec, await repository.tally(projectScope(project), spec));
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      failures.push(
        `QUERY_SEED=${SEED} scenario ${project - 1000}\nspec ${JSON.stringify(spec)}\nevents ${JSON.stringify(events)}\nlinks ${JSON.stringify(links.slice(0, 50))}\nreference ${JSON.stringify(expected)}\nSQL ${JSON.stringify(actual)}`,
      );
    }
  }
  return failures.slice(0, 2);
}

describe(`funnels: SQL and reference (QUERY_SEED=${SEED})`, () => {
  let store: EventsStore;
  const scenarios = Array.from({ length: SCENARIOS }, (_, i) => scenario(new Random(SEED + i), 1000 + i));

  beforeAll(async () => {
    store = await EventsStore.create();
    const random = new Random(SEED);
    await store.insert(
      arrivalBatches(
        random,
        scenarios.flatMap(({ project, events }) => events.map((event) => [project, event] as const)),
      ),
    );
    const [limited, ...others] = scenarios;
    await applyLinks(store, random, limited.links, true);
    await applyLinks(
      store,
      random,
      others.flatMap((s) => s.links),
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
      expect(
        await disagreements(
          new QueryRunner(store.client, { ...loadQuerySettings({}), identityLookup: false }),
          scenarios,
        ),
      ).toEqual([]);
    },
    Math.max(60_000, SCENARIOS * 1_000),
  );

  it('the 500-id limit refused the same links in the writer as in the reference', async () => {
    const identities = identitiesOf(scenarios[0].links);
    expect(identities.clusterOf('u1')).toHaveLength(MAX_CLUSTER_IDS);
    expect([identities.resolve('u0'), identities.resolve('u2'), identities.resolve('u3')]).toEqual(['u0', 'u1', 'u3']);
    const repository = new IdentityRepository(store.client);
    for (const id of ['u0', 'u1', 'u3'])
      expect(await repository.clustersOf(projectScope(LIMIT_PROJECT), [id])).toEqual(identities.clusterOf(id));
  });
});

/**
 * Events stored before ClickHouse migration 5 added `user_key`: their parts compute it when read
 * (merges are held here, so none rewrites them) until an operator's `MATERIALIZE COLUMN` has
 * written it, and funnels read them right both before and after.
 */
describe(`funnels over events stored before the user_key column (QUERY_SEED=${SEED})`, () => {
  let store: EventsStore;
  const scenarios = Array.from({ length: Math.min(SCENARIOS, 40) }, (_, i) => scenario(new Random(SEED + i), 1000 + i));
  /** Rows of a system table about the events table. */
  const countOf = async (systemTable: string, condition: string) =>
    Number(
      (
        await (
          await store.client.query({
            query: `SELECT count() AS n FROM ${systemTable} WHERE database = currentDatabase() AND table = 'events' AND ${condition}`,
            format: 'JSONEachRow',
          })
        ).json<{ n: string }>()
      )[0].n,
    );
  const userKeyParts = () => countOf('system.parts_columns', "active AND column = 'user_key'");
  const pendingMutations = () => countOf('system.mutations', 'NOT is_done');

  beforeAll(async () => {
    store = await EventsStore.create(CLICKHOUSE_MIGRATIONS.filter((migration) => migration.version < 5));
    const random = new Random(SEED);
    await store.insert(
      arrivalBatches(
        random,
        scenarios.flatMap(({ project, events }) => events.map((event) => [project, event] as const)),
      ),
    );
    const [limited, ...others] = scenarios;
    await applyLinks(store, random, limited.links, true);
    await applyLinks(
      store,
      random,
      others.flatMap((s) => s.links),
    );
    await store.client.command({ query: `SYSTEM STOP MERGES ${EVENTS_TABLE}` });
    await store.migrate();
  }, 180_000);
  afterAll(() => store?.close());

  it('agree with the reference while the parts do not hold the column yet', async () => {
    expect({ parts: await userKeyParts(), pending: await pendingMutations() }).toEqual({ parts: 0, pending: 0 });
    expect(await disagreements(store.runner, scenarios)).toEqual([]);
  }, 180_000);

  it('agree with the reference once the column is materialized', async () => {
    await store.client.command({ query: `SYSTEM START MERGES ${EVENTS_TABLE}` });
    await store.client.command({
      query: `ALTER TABLE ${EVENTS_TABLE} MATERIALIZE COLUMN user_key`,
      clickhouse_settings: { mutations_sync: '1' },
    });
    expect({ parts: (await userKeyParts()) > 0, pending: await pendingMutations() }).toEqual({
      parts: true,
      pending: 0,
    });
    expect(await disagreements(store.runner, scenarios)).toEqual([]);
  }, 180_000);
});
