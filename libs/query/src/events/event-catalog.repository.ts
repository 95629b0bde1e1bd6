import { Injectable } from '@nestjs/common';
import { QueryRunner } from '../clickhouse/query-runner';
import { EventExpression } from '../expressions/query-expressions';
import { SegmentationType } from '../segmentation/segmentation-spec';
import { topEventNamesSql, topPropertiesSql, topValuesSql } from './event-catalog-sql';

@Injectable()
export class EventCatalogRepository {
  constructor(private readonly runner: QueryRunner) {}

  async eventNames(projectId: number, type: SegmentationType, limit: number, sinceMs: number, signal?: AbortSignal): Promise<string[]> {
    return (await this.runner.rows<{ event: string }>(topEventNamesSql(projectId, type, limit, sinceMs), signal)).map((row) => row.event);
  }

  async topProperties(projectId: number, event: string, limit: number, sinceMs: number, signal?: AbortSignal): Promise<{ name: string; count: number }[]> {
    const rows = await this.runner.rows<{ name: string; count: number }>(topPropertiesSql(projectId, event, limit, sinceMs), signal);
    return rows.map((row) => ({ name: row.name, count: Number(row.count) }));
  }

  async propertyValues(projectId: number, event: string, property: EventExpression, limit: number, sinceMs: number, signal?: AbortSignal): Promise<string[]> {
    return (await this.runner.rows<{ value: string }>(topValuesSql(projectId, event, property, limit, sinceMs), signal)).map((row) => row.value);
  }
}
