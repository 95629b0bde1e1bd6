import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { Clock } from '@analytics/clock';
import { propertyExpression } from '../expressions/query-expressions';
import { SegmentationType } from '../segmentation/segmentation-spec';
import { TimeZone } from '../time/time-zone';
import { CATALOG_DAYS } from './event-catalog-sql';
import { EventCatalogRepository } from './event-catalog.repository';

/** What a project's events look like lately: names, property names, property values. */
@Injectable()
export class EventCatalogService {
  constructor(
    private readonly repository: EventCatalogRepository,
    private readonly clock: Clock,
  ) {}

  /** The first instant of the catalog's days, in the project's zone. */
  private sinceMs(scope: ProjectScope): number {
    const zone = TimeZone.of(scope.timeZone);
    return zone.dayStartMs(zone.dayOf(this.clock.now()) - CATALOG_DAYS + 1);
  }

  eventNames(scope: ProjectScope, type: SegmentationType, limit: number, signal?: AbortSignal): Promise<string[]> {
    return this.repository.eventNames(scope, type, limit, this.sinceMs(scope), signal);
  }

  /** `{"<property>": {"count": N}}`, the most used first; without `event`, across every event (as the real API answers). */
  async topProperties(
    scope: ProjectScope,
    event: string | undefined,
    limit: number,
    signal?: AbortSignal,
  ): Promise<Record<string, { count: number }>> {
    const rows = await this.repository.topProperties(scope, event, limit, this.sinceMs(scope), signal);
    return Object.fromEntries(rows.map((row) => [row.name, { count: row.count }]));
  }

  propertyValues(
    scope: ProjectScope,
    event: string,
    name: string,
    limit: number,
    signal?: AbortSignal,
  ): Promise<string[]> {
    return this.repository.propertyValues(
      scope,
      event,
      propertyExpression('name', name),
      limit,
      this.sinceMs(scope),
      signal,
    );
  }
}
