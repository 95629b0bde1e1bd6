import { ClickHouseClient } from '@analytics/clickhouse';
import { ExpressionLookups, parseExpression } from '@analytics/expression';
import { LOOKUP_TABLE_ROWS_TABLE, lookupSourceSql } from '@analytics/lookup-tables';
import { InsightsSpec } from '@analytics/query';
import { projectScope } from '@analytics/tenancy';

/** The rows of the benchmark's lookup table: keyed by `amount` (0…999 on the events) and 99,000 keys no event has. */
export const LOOKUP_ROWS = Number(process.env.BENCH_LOOKUP_ROWS ?? 100_000);
const TABLE_ID = 'bench-amounts';

/**
 * A lookup table mapped to the events' `amount`: `tier` is floor(amount / 100), so a report broken
 * down and filtered by `properties["amount"]["tier"]` must answer as the same report computed from
 * the property itself (`string(floor(properties["amount"] / 100))`), which is its baseline.
 */
export async function fillLookupTable(client: ClickHouseClient, project: number): Promise<ExpressionLookups> {
  await client.command({
    query: `ALTER TABLE ${LOOKUP_TABLE_ROWS_TABLE} DELETE WHERE table_id = {table:String}`,
    query_params: { table: TABLE_ID },
    clickhouse_settings: { mutations_sync: '2' },
  });
  await client.command({
    query: `INSERT INTO ${LOOKUP_TABLE_ROWS_TABLE}
      SELECT {project:UInt32}, {table:String}, 1, toString(number),
        concat('{"tier":', toString(intDiv(number, 100)), ',"label":"amount ', toString(number), '"}')
      FROM numbers({rows:UInt64})`,
    query_params: { project, table: TABLE_ID, rows: LOOKUP_ROWS },
  });
  return { properties: { amount: lookupSourceSql(projectScope(project), { tableId: TABLE_ID, version: 1 }, 0) } };
}

const expression = (field: string, text: string, lookups?: ExpressionLookups) => ({
  field,
  text,
  tree: parseExpression(text),
  lookups,
});

/** An insights report broken down and filtered by the table's column, and its twin computed from the property. */
export function lookupInsights(base: InsightsSpec, lookups: ExpressionLookups): [InsightsSpec, InsightsSpec] {
  const spec = (on: string, where: string, withTable?: ExpressionLookups): InsightsSpec => ({
    ...base,
    metrics: [
      { name: 'Viewed page', event: 'Viewed page', math: 'total', where: expression('where', where, withTable) },
    ],
    on: expression('on', on, withTable),
  });
  return [
    spec('properties["amount"]["tier"]', 'properties["amount"]["tier"] >= 3', lookups),
    spec('string(floor(properties["amount"] / 100))', 'floor(properties["amount"] / 100) >= 3'),
  ];
}
