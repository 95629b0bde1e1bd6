import { EventsDeletionRepository } from '@analytics/event-store';
import { Postgres, selectRows } from '@analytics/postgres';
import { ChSql, chParam, chSql, pgSql, ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';

/** The project's events with the import's stamp, read from the JSON text of their custom properties. */
export const importedEventsSql = (scope: ProjectScope, importId: number): ChSql =>
  chSql`${scope} AND JSONExtractString(properties, '$warehouse_import_id') = ${chParam(String(importId))}`;

/**
 * What one import brought, found by its `$warehouse_import_id` stamp: events in ClickHouse (deleted
 * and counted by the event store, as compliance deletions are) and profiles in Postgres (removed
 * through the profile path, so the ClickHouse mirror follows).
 */
@Injectable()
export class ImportedDataRepository {
  constructor(
    private readonly events: EventsDeletionRepository,
    private readonly postgres: Postgres,
  ) {}

  deleteEvents(scope: ProjectScope, importId: number): Promise<void> {
    return this.events.delete(importedEventsSql(scope, importId));
  }

  countEvents(scope: ProjectScope, importId: number): Promise<number> {
    return this.events.count(importedEventsSql(scope, importId));
  }

  /** The project's profile ids (user: group key '') that carry the import's stamp. */
  async profileIds(scope: ProjectScope, importId: number, groupKey: string): Promise<string[]> {
    const rows = await selectRows<{ profile_id: string }>(
      this.postgres.db,
      pgSql`select profile_id from profiles where ${scope} and group_key = ${groupKey} and properties->>'$warehouse_import_id' = ${String(importId)}`,
    );
    return rows.map((row) => row.profile_id);
  }
}
