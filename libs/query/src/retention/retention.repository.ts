import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { QueryRunner } from '../clickhouse/query-runner';
import { AddictionRow, addictionSql, AddictionSpec } from './addiction';
import { RetentionRow, retentionSql } from './retention-sql';
import { RetentionSpec } from './retention-spec';
import { RetentionCohort } from './retention-tally';

const toMap = ([keys, values]: [number[], number[]]) => new Map(keys.map((key, i) => [Number(key), Number(values[i])]));

@Injectable()
export class RetentionRepository {
  constructor(private readonly runner: QueryRunner) {}

  async cohorts(scope: ProjectScope, spec: RetentionSpec, signal?: AbortSignal): Promise<RetentionCohort[]> {
    const resolve = await this.runner.resolvesIdentities(scope, signal);
    const rows = await this.runner.rows<RetentionRow>(retentionSql(scope, spec, resolve), signal);
    return rows.map((row) => ({
      cohort: Number(row.cohort),
      first: Number(row.first),
      returned: toMap(row.returned),
      lastReturned: toMap(row.last_returned),
    }));
  }

  async addiction(scope: ProjectScope, spec: AddictionSpec, signal?: AbortSignal): Promise<AddictionRow[]> {
    const resolve = await this.runner.resolvesIdentities(scope, signal);
    return this.runner.rows<AddictionRow>(addictionSql(scope, spec, resolve), signal);
  }
}
