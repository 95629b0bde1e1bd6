import { QueryParameterDoc } from '@analytics/http';
import { parseFlowsQuery } from '../flows/flows-spec';
import { parseFunnelQuery, parseFunnelRun } from '../funnels/funnel-spec';
import { parseAddictionQuery } from '../retention/addiction';
import { parseRetentionQuery } from '../retention/retention-spec';
import {
  parseEventPropertiesQuery,
  parseEventsQuery,
  parseNumericBucketsQuery,
  parseNumericSeriesQuery,
  parseSegmentationQuery,
} from '../segmentation/segmentation-query';
import { parseStreamQuery } from '../stream/stream-query';
import { QUERY_PARAMETERS } from './query-parameters';
import { QueryParams } from './query-params';

/** Remembers every name a parser reads. */
class ReadNames extends QueryParams {
  readonly names = new Set<string>();
  override text(name: string): string | undefined {
    this.names.add(name);
    return super.text(name);
  }
}

const NOW = Date.UTC(2026, 0, 31, 12);
const PARSERS: Array<[keyof typeof QUERY_PARAMETERS, (params: QueryParams) => unknown]> = [
  // As FunnelsController reads them: an unsaved definition (params) or a saved funnel (funnel_id).
  [
    'funnels',
    (params) =>
      params.text('params') !== undefined && params.text('funnel_id') === undefined
        ? parseFunnelRun(params)
        : parseFunnelQuery(params),
  ],
  ['retention', parseRetentionQuery],
  ['addiction', parseAddictionQuery],
  ['segmentation', parseSegmentationQuery],
  ['numericBuckets', parseNumericBucketsQuery],
  ['numericSeries', parseNumericSeriesQuery],
  ['events', (params) => parseEventsQuery(params, NOW)],
  ['eventProperties', (params) => parseEventPropertiesQuery(params, NOW)],
  ['stream', parseStreamQuery],
  ['flows', parseFlowsQuery],
];

/** Names a parser reads only to refuse them with a 400 (not offered, so not documented). */
const REFUSED: Partial<Record<keyof typeof QUERY_PARAMETERS, string[]>> = { retention: ['on'] };

const read = (parse: (params: QueryParams) => unknown, documented: readonly QueryParameterDoc[]) => {
  const params = new ReadNames(
    new URLSearchParams(
      documented.filter((p) => p.example !== undefined).map((p): [string, string] => [p.name, p.example!]),
    ),
  );
  parse(params);
  return params.names;
};

describe('the query API parameters in the OpenAPI document', () => {
  it.each(PARSERS)(
    '%s: the documented examples are accepted, and the parser reads no parameter the document leaves out',
    (route, parse) => {
      const documented: readonly QueryParameterDoc[] = QUERY_PARAMETERS[route];
      const names = new Set([...documented.map((p) => p.name), ...(REFUSED[route] ?? [])]);
      expect([...read(parse, documented)].filter((name) => !names.has(name))).toEqual([]);
      // With only the required ones (and what a required choice implies), too: other branches read other names.
      // A funnel needs funnel_id or params: the saved one here, the unsaved one in the e2e tests.
      const required = documented.filter((p) => p.required || p.name === 'born_event' || p.name === 'funnel_id');
      expect([...read(parse, required)].filter((name) => !names.has(name))).toEqual([]);
    },
  );

  it('documents every required parameter with an example, and each name once per route', () => {
    for (const [route, documented] of Object.entries(QUERY_PARAMETERS) as Array<
      [string, readonly QueryParameterDoc[]]
    >) {
      expect({
        route,
        missing: documented.filter((p) => p.required && p.example === undefined).map((p) => p.name),
      }).toEqual({ route, missing: [] });
      const names = documented.map((p) => p.name);
      expect({ route, names: [...new Set(names)] }).toEqual({ route, names });
    }
  });
});
