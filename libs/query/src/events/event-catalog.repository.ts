import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { QueryRunner } from '../clickhouse/query-runner';
import { EventExpression } from '../expressions/query-expressions';
import { SegmentationType } from '../segmentation/segmentation-spec';
import { topEventNamesSql, topPropertiesSql, topValuesSql } from './event-catalog-sql';

@Injectable()
export class EventCatalogRepository {
  constructor(private readonly runner: QueryRunner) {}

  async eventNames(
    scope: ProjectScope,
    type: SegmentationType,
    limit: number,
    sinceMs: number,
    signal?: AbortSignal,
  ): Promise<string[]> {
    return (await this.runner.rows<{ event: string }>(topEventNamesSql(scope, type, limit, sinceMs), signal)).map(
      (row) => row.event,
    );
  }

  async topProperties(
    scope: ProjectScope,
    event: string | undefined,
    limit: number,
    sinceMs: number,
    signal?: AbortSignal,
  ): Promise<{ name: string; count: number }[]> {
    const rows = await this.runner.rows<{ name: string; count: number }>(
      topPropertiesSql(scope, event, limit, sinceMs),
      signal,
    );
    return rows.map((row) => ({ name: row.name, count: Number(row.count) }));
  }

  async propertyValues(
    scope: ProjectScope,
    event: string,
    property: EventExpression,
    limit: number,
    sinceMs: number,
    signal?: AbortSignal,
  ): Promise<string[]> {
    return (
      await this.runner.rows<{ value: string }>(topValuesSql(scope, event, property, limit, sinceMs), signal)
    ).map((row) => row.value);
  }
}
