import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { QueryRunner } from '../clickhouse/query-runner';
import { FlowsSpec } from './flows-spec';
import { FlowsRow, flowsSql } from './flows-sql';
import { FlowsTally } from './flows-tally';

@Injectable()
export class FlowsRepository {
  constructor(private readonly runner: QueryRunner) {}

  async tally(scope: ProjectScope, spec: FlowsSpec, signal?: AbortSignal): Promise<FlowsTally> {
    const resolve = await this.runner.resolvesIdentities(scope, signal);
    const [row] = await this.runner.rows<FlowsRow>(flowsSql(scope, spec, resolve, this.runner.identityLookup), signal);
    return {
      people: Number(row.people),
      distinctPaths: Number(row.distinct_paths),
      top: row.top.map(([steps, count]) => ({ steps, count: Number(count) })),
      reached: row.reached.map(Number),
    };
  }
}
