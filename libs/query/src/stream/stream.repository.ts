import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { QueryRunner } from '../clickhouse/query-runner';
import { StreamQuery } from './stream-query';
import { StreamIds, StreamRow, streamSql } from './stream-sql';

@Injectable()
export class StreamRepository {
  constructor(private readonly runner: QueryRunner) {}

  /** Up to `limit` events of the ids, newest first, from after the query's cursor. */
  page(scope: ProjectScope, ids: StreamIds, query: StreamQuery, limit: number, signal?: AbortSignal) {
    return this.runner.rows<StreamRow>(streamSql(scope, ids, query, limit, query.cursor), signal);
  }
}
