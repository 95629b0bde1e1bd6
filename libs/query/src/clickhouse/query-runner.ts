import { ClickHouseClient } from '@analytics/clickhouse';
import { mergedIdExistsSql } from '@analytics/event-store';
import { ChBoundQuery, ProjectScope, renderChSql } from '@analytics/tenancy';
import { Inject, Injectable } from '@nestjs/common';
import { QUERY_SETTINGS, QuerySettings } from '../query-settings';

/** SQL and its bound values, as `renderChSql` makes them; user text only ever travels in `params`. */
export type BoundQuery = ChBoundQuery;

/**
 * Runs the reports' SELECTs: every one with the execution-time and memory caps (past either, the
 * query API answers 400: libs/http's error-status), and cancelled (on a server, the
 * running query is killed) when `signal` aborts because the client went away.
 */
@Injectable()
export class QueryRunner {
  constructor(
    @Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient,
    @Inject(QUERY_SETTINGS) private readonly settings: QuerySettings,
  ) {}

  /** Whether unique counts resolve ids through identity_lookup (QuerySettings.identityLookup). */
  get identityLookup(): boolean {
    return this.settings.identityLookup;
  }

  async rows<T>(query: BoundQuery, signal?: AbortSignal): Promise<T[]> {
    const result = await this.clickhouse.query({
      query: query.sql,
      query_params: query.params,
      format: 'JSONEachRow',
      abort_signal: signal,
      clickhouse_settings: {
        max_execution_time: this.settings.maxExecutionSeconds,
        max_memory_usage: String(this.settings.maxMemoryBytes),
        // Aggregations and sorts past half the cap spill to disk (ClickHouse's advice), so a large
        // range is slower rather than refused; the hash joins' right sides still count whole.
        max_bytes_before_external_group_by: String(Math.floor(this.settings.maxMemoryBytes / 2)),
        max_bytes_before_external_sort: String(Math.floor(this.settings.maxMemoryBytes / 2)),
      },
    });
    return result.json<T>();
  }

  /**
   * Whether reports on the project must resolve ids through identity_map: only once one of its ids
   * is merged (docs/queries.md, "Performance"). A link arriving between this and the report's query
   * leaves the report as it was just before the link.
   */
  async resolvesIdentities(scope: ProjectScope, signal?: AbortSignal): Promise<boolean> {
    return (await this.rows(renderChSql(mergedIdExistsSql(scope)), signal)).length > 0;
  }
}
