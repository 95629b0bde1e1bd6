import { EventsDeletionRepository } from '@analytics/event-store';
import { ProfileLookupRepository } from '@analytics/profile-store';
import { ChSql, chParam, chSql, ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';

/** The project's events with the import's stamp, read from the JSON text of their custom properties. */
export const importedEventsSql = (scope: ProjectScope, importId: number): ChSql =>
  chSql`${scope} AND JSONExtractString(properties, '$warehouse_import_id') = ${chParam(String(importId))}`;

/**
 * What one import brought, found by its `$warehouse_import_id` stamp: events in ClickHouse (deleted
 * and counted by the event store, as compliance deletions are) and profiles in Postgres (found by
 * the profile store, removed through the profile path, so the ClickHouse mirror follows).
 */
@Injectable()
export class ImportedDataRepository {
  constructor(
    private readonly events: EventsDeletionRepository,
    private readonly profiles: ProfileLookupRepository,
  ) {}

  deleteEvents(scope: ProjectScope, importId: number): Promise<void> {
    return this.events.delete(importedEventsSql(scope, importId));
  }

  countEvents(scope: ProjectScope, importId: number): Promise<number> {
    return this.events.count(importedEventsSql(scope, importId));
  }

  /** The project's profile ids (user: group key '') that carry the import's stamp. */
  profileIds(scope: ProjectScope, importId: number, groupKey: string): Promise<string[]> {
    return this.profiles.idsWithProperty(scope, groupKey, '$warehouse_import_id', String(importId));
  }
}
