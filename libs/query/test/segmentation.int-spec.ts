import { projectScope } from '@analytics/tenancy';
import { parseEventExpression } from '../src/expressions/query-expressions';
import { referenceNumericBuckets } from '../src/segmentation/numeric-buckets';
import { numericSeriesResults, referenceNumericSeries } from '../src/segmentation/numeric-sum';
import { SEGMENTATION_TYPES, SegmentationSpec } from '../src/segmentation/segmentation-spec';
import { referenceSegmentation } from '../src/segmentation/segmentation-reference';
import { segmentationResult, shownSeries } from '../src/segmentation/segmentation-tally';
import { SegmentationRepository } from '../src/segmentation/segmentation.repository';
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
 * Segmentation SQL against the plain reference on generated scenarios, `where` and `on` over the
 * event's properties or its person's profile. Replay with QUERY_SEED=<seed>.
 */
const SEED = Number(process.env.QUERY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const SCENARIOS = Number(process.env.SEGMENTATION_SCENARIOS ?? 100);

function scenario(
  random: Random,
  project: number,
): {
  project: number;
  spec: SegmentationSpec;
  events: StoredEvent[];
  links: IdentityLink[];
  profiles: Map<string, JsonObject>;
} {
  const fromDay = random.pick(PLAN_DAYS);
  const toDay = fromDay + random.int(0, 3);
  const zone = pickZone(random);
  const on = maybeSegmentOrUser(random, 0.5);
  const events = random.chance(0.5)
    ? [random.pick(EVENT_NAMES)]
    : [...new Set([random.pick(EVENT_NAMES), random.pick(EVENT_NAMES)])];
  const spec: SegmentationSpec = {
    events,
    fromDay,
    toDay,
    zone,
    unit: random.pick(SERIES_UNITS),
    type: random.pick(SEGMENTATION_TYPES),
    where: maybeWhereOrUser(random, 0.3),
    on,
    values: on && random.chance(0.2) ? ['pro', '2', 'x'] : undefined,
    limit: on ? random.pick([1, 2, 60]) : events.length,
  };
  const users = random.int(1, 10);
  const stored = generateEvents(random, {
    fromDay,
    toDay,
    users,
    maxEventsPerUser: random.int(1, 10),
    names: EVENT_NAMES,
    zone,
  });
  // Identity merges from a stream of their own, so the scenarios stay what they were without them.
  return {
    project,
    spec,
    events: stored,
    links: generateLinks(new Random(SEED + project * 7), project, users, fromDay),
    profiles: generateProfiles(new Random(SEED + project * 11), users),
  };
}

describe(`segmentation: SQL and reference (QUERY_SEED=${SEED})`, () => {
  let store: EventsStore;
  const scenarios = Array.from({ length: SCENARIOS }, (_, i) => scenario(new Random(SEED + i), 3000 + i));

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
      const repository = new SegmentationRepository(store.runner);
      const failures: string[] = [];
      for (const { project, spec, events: stored, links, profiles } of scenarios) {
        const events = withProfiles(resolveIdentities(deduplicate(stored), identitiesOf(links)), profiles);
        const reference = referenceSegmentation(events, spec);
        const expected = segmentationResult(spec, reference.cells, shownSeries(spec, reference.ranked));
        const sql = await repository.cells(projectScope(project), spec);
        const actual = segmentationResult(spec, sql.cells, shownSeries(spec, sql.ranked));
        // The same events bucketed by the numbers of properties["n"] (/segmentation/numeric).
        const numeric = { ...spec, on: parseEventExpression('on', 'properties["n"]'), values: undefined };
        const numericReference = referenceNumericBuckets(events, numeric);
        const numericSql = await repository.numericBuckets(projectScope(project), numeric);
        // And /segmentation/sum and /average of it.
        const series = {
          event: spec.events[0],
          fromDay: spec.fromDay,
          toDay: spec.toDay,
          zone: spec.zone,
          unit: spec.unit,
          on: numeric.on,
          where: spec.where,
        };
        const seriesSql = await repository.numericSeries(projectScope(project), series);
        const seriesReference = referenceNumericSeries(events, series);
        const pairs = [
          [numericSeriesResults(series, seriesSql, false), numericSeriesResults(series, seriesReference, false)],
          [numericSeriesResults(series, seriesSql, true), numericSeriesResults(series, seriesReference, true)],
          [actual, expected],
          [
            segmentationResult(numeric, numericSql.cells, numericSql.ranked),
            segmentationResult(numeric, numericReference.cells, numericReference.ranked),
          ],
        ];
        for (const [fromSql, fromReference] of pairs) {
          if (JSON.stringify(fromSql) !== JSON.stringify(fromReference)) {
            failures.push(
              `QUERY_SEED=${SEED} scenario ${project - 3000}\nspec ${JSON.stringify(spec)}\nevents ${JSON.stringify(events)}\nreference ${JSON.stringify(fromReference)}\nSQL ${JSON.stringify(fromSql)}`,
            );
          }
        }
      }
      expect(failures.slice(0, 2)).toEqual([]);
    },
    Math.max(60_000, SCENARIOS * 1_000),
  );
});
