import { ExpressionLookups, LookupSource } from '@analytics/expression';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { lookupSourceSql } from './lookup-rows-sql';
import { LookupTablesRepository } from './lookup-tables.repository';

/** What a report's expressions may look up: the tables mapped to the project's properties. */
export interface ReportLookups {
  /** For queries over events: event-property tables under `properties`, profile-property ones under `user`. */
  readonly events: ExpressionLookups;
  /** For queries over profiles (`properties` and `user` both read the profile). */
  readonly profiles: Readonly<Record<string, LookupSource>>;
}

export const NO_LOOKUPS: ReportLookups = { events: {}, profiles: {} };

/**
 * The read source lookup tables offer reports: for each mapped table, its current rows as SQL the
 * expression compiler joins in the engine (libs/expression, `LookupSource`). One Postgres read per
 * report; the rows themselves never leave ClickHouse.
 */
@Injectable()
export class LookupTablesReader {
  constructor(private readonly repository: LookupTablesRepository) {}

  async lookups(scope: ProjectScope): Promise<ReportLookups> {
    const tables = await this.repository.mapped(scope);
    if (tables.length === 0) return NO_LOOKUPS;
    const event: Record<string, LookupSource> = {};
    const profile: Record<string, LookupSource> = {};
    tables.forEach((table, n) => {
      const source = lookupSourceSql(scope, { tableId: table.id, version: table.version }, n);
      if (table.mappedTo?.source === 'event') event[table.mappedTo.property] = source;
      if (table.mappedTo?.source === 'profile') profile[table.mappedTo.property] = source;
    });
    return { events: { properties: event, user: profile }, profiles: profile };
  }
}
