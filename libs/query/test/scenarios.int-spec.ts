import { projectScope } from '@analytics/tenancy';
import { validateFunnelDefinition, validateInsightsParams } from '@analytics/report-definitions';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { referenceFlows } from '../src/flows/flows-reference';
import { parseFlowsQuery } from '../src/flows/flows-spec';
import { flowsResult } from '../src/flows/flows-tally';
import { FlowsRepository } from '../src/flows/flows.repository';
import { funnelSpec, parseFunnelQuery } from '../src/funnels/funnel-spec';
import { referenceFunnel } from '../src/funnels/funnel-reference';
import { funnelResult } from '../src/funnels/funnel-tally';
import { FunnelsRepository } from '../src/funnels/funnels.repository';
import { QueryParams } from '../src/http/query-params';
import { referenceInsights } from '../src/insights/insights-reference';
import { insightsSpec } from '../src/insights/insights-spec';
import { insightsResult } from '../src/insights/insights-tally';
import { InsightsRepository } from '../src/insights/insights.repository';
import { referenceRetention } from '../src/retention/retention-reference';
import { parseRetentionQuery } from '../src/retention/retention-spec';
import { retentionResult } from '../src/retention/retention-tally';
import { RetentionRepository } from '../src/retention/retention.repository';
import { referenceNumericBuckets } from '../src/segmentation/numeric-buckets';
import { parseNumericBucketsQuery, parseSegmentationQuery } from '../src/segmentation/segmentation-query';
import { referenceSegmentation } from '../src/segmentation/segmentation-reference';
import { segmentationResult, shownSeries } from '../src/segmentation/segmentation-tally';
import { SegmentationRepository } from '../src/segmentation/segmentation.repository';
import { TimeZone } from '../src/time/time-zone';
import { Scenario } from './support/scenario';
import { deduplicate, EventsStore, StoredEvent } from './support/stored-events';

/** Every hand-written scenario under scenarios/: the SQL and the reference both give its expected answer. */
const ROOT = join(__dirname, 'scenarios');
const NOW = Date.UTC(2024, 5, 1, 12);

const files = readdirSync(ROOT, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.scenario.ts'))
  .sort();
const scenarios = files.map((file, i) => ({
  file,
  project: 5000 + i,
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  scenario: (require(join(ROOT, file)) as { default: Scenario }).default,
}));

/** The answer from the SQL and from the reference, in the scenario's time zone (UTC unless it names one). */
async function answers(store: EventsStore, project: number, scenario: Scenario): Promise<[unknown, unknown]> {
  const events = deduplicate(scenario.events);
  const zone = TimeZone.of(scenario.timeZone ?? 'UTC');
  const params = (query: Record<string, string>) => new QueryParams(new URLSearchParams(query), zone);
  const scope = projectScope(project, null, zone.name);
  switch (scenario.kind) {
    case 'funnel': {
      const spec = funnelSpec(
        validateFunnelDefinition(scenario.funnel),
        parseFunnelQuery(params({ funnel_id: '1', ...scenario.query })),
      );
      return [
        funnelResult(spec, await new FunnelsRepository(store.runner).tally(scope, spec)),
        funnelResult(spec, referenceFunnel(events, spec)),
      ];
    }
    case 'retention': {
      const spec = parseRetentionQuery(params(scenario.query));
      return [
        retentionResult(spec, await new RetentionRepository(store.runner).cohorts(scope, spec)),
        retentionResult(spec, referenceRetention(events, spec)),
      ];
    }
    case 'segmentation': {
      const spec = parseSegmentationQuery(params(scenario.query));
      const sql = await new SegmentationRepository(store.runner).cells(scope, spec);
      const reference = referenceSegmentation(events, spec);
      return [
        segmentationResult(spec, sql.cells, shownSeries(spec, sql.ranked)),
        segmentationResult(spec, reference.cells, shownSeries(spec, reference.ranked)),
      ];
    }
    case 'numeric': {
      const spec = parseNumericBucketsQuery(params(scenario.query));
      const sql = await new SegmentationRepository(store.runner).numericBuckets(scope, spec);
      const reference = referenceNumericBuckets(events, spec);
      return [
        segmentationResult(spec, sql.cells, sql.ranked),
        segmentationResult(spec, reference.cells, reference.ranked),
      ];
    }
    case 'insights': {
      const spec = insightsSpec(validateInsightsParams(scenario.params), NOW, zone);
      return [
        insightsResult(spec, await new InsightsRepository(store.runner).tally(scope, spec), NOW),
        insightsResult(spec, referenceInsights(events, spec), NOW),
      ];
    }
    case 'flows': {
      const spec = parseFlowsQuery(params(scenario.query));
      return [
        flowsResult(spec, await new FlowsRepository(store.runner).tally(projectScope(project), spec)),
        flowsResult(spec, referenceFlows(events, spec)),
      ];
    }
  }
}

describe('hand-written scenarios', () => {
  let store: EventsStore;

  beforeAll(async () => {
    store = await EventsStore.create();
    // Reversed, in two inserts: arrival order never matters.
    const rows = scenarios.flatMap(({ project, scenario }) =>
      [...scenario.events].reverse().map((event) => [project, event] as [number, StoredEvent]),
    );
    await store.insert([rows.filter((_, i) => i % 2 === 0), rows.filter((_, i) => i % 2 === 1)]);
  });
  afterAll(() => store?.close());

  it.each(scenarios.map((s) => [s.file, s]))('%s', async (_, { project, scenario }) => {
    const [sql, reference] = await answers(store, project, scenario);
    expect(sql).toMatchObject(scenario.expected as object);
    expect(reference).toEqual(sql);
  });
});
