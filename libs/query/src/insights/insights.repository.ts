import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { QueryRunner } from '../clickhouse/query-runner';
import { readsProfiles } from '../expressions/query-expressions';
import { InsightsRow, insightsSql } from './insights-sql';
import { InsightsSpec } from './insights-spec';
import { InsightsTally, OVERALL } from './insights-tally';

@Injectable()
export class InsightsRepository {
  constructor(private readonly runner: QueryRunner) {}

  async tally(scope: ProjectScope, spec: InsightsSpec, signal?: AbortSignal): Promise<InsightsTally> {
    // Only unique counts and profile properties (a person's, under their canonical id) read users: a report without them never asks.
    const readsUsers = spec.metrics.some(
      (metric) => metric.math === 'unique' || readsProfiles([metric.where, metric.property, spec.on]),
    );
    const resolve = readsUsers && (await this.runner.resolvesIdentities(scope, signal));
    const rows = await this.runner.rows<InsightsRow>(
      insightsSql(scope, spec, resolve, this.runner.identityLookup),
      signal,
    );
    const cells = rows.map((row) => ({
      metric: Number(row.metric),
      key: Number(row.key),
      segment: row.segment,
      value: Number(row.value),
    }));
    if (!spec.on) return { cells };
    const segments = spec.metrics.map((_, i) => {
      const ranks = new Map(
        rows
          .filter((row) => Number(row.metric) === i && row.segment !== OVERALL)
          .map((row) => [row.segment, Number(row.rank)]),
      );
      return [...ranks.keys()].sort((a, b) => ranks.get(a)! - ranks.get(b)!);
    });
    return { cells, segments };
  }
}
