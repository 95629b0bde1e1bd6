import { clickHouseErrorCode } from '@analytics/clickhouse';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { QueryRunner } from '../clickhouse/query-runner';
import { QueryError, QueryErrorCode } from '../query-error';
import { FlowsSpec } from './flows-spec';
import { FLOWS_MAX_MEMORY_BYTES, FlowsRow, flowsSql } from './flows-sql';
import { FlowsTally } from './flows-tally';

/** ClickHouse's MEMORY_LIMIT_EXCEEDED: the query went past its max_memory_usage. */
const MEMORY_LIMIT_EXCEEDED = 241;

@Injectable()
export class FlowsRepository {
  constructor(private readonly runner: QueryRunner) {}

  async tally(
    scope: ProjectScope,
    spec: FlowsSpec,
    signal?: AbortSignal,
    maxMemoryBytes = FLOWS_MAX_MEMORY_BYTES,
  ): Promise<FlowsTally> {
    const resolve = await this.runner.resolvesIdentities(scope, signal);
    const query = flowsSql(scope, spec, resolve, this.runner.identityLookup, maxMemoryBytes);
    const [row] = await this.runner.rows<FlowsRow>(query, signal).catch((error: unknown) => {
      // Too many people or events in the range for the cap: the caller's to narrow, as a query past its time.
      if (clickHouseErrorCode(error) === MEMORY_LIMIT_EXCEEDED)
        throw new QueryError(
          QueryErrorCode.TooLarge,
          `the flows query needs more than its ${Math.round(maxMemoryBytes / 1024 ** 2)} MB of memory: narrow the date range or add a where on the anchor`,
        );
      throw error;
    });
    return {
      people: Number(row.people),
      distinctPaths: Number(row.distinct_paths),
      top: row.top.map(([steps, count]) => ({ steps, count: Number(count) })),
      reached: row.reached.map(Number),
    };
  }
}
