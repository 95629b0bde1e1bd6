import { Postgres, selectRows } from '@analytics/postgres';
import { pgSql, ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { PROFILES_TABLE } from './profiles-tables';

/** Profiles found by what they hold, in the Postgres source of truth. */
@Injectable()
export class ProfileLookupRepository {
  constructor(private readonly postgres: Postgres) {}

  /** The ids of the project's profiles of a kind (user: group key '') whose top-level `property` is the text `value`. */
  async idsWithProperty(scope: ProjectScope, groupKey: string, property: string, value: string): Promise<string[]> {
    const rows = await selectRows<{ profile_id: string }>(
      this.postgres.db,
      pgSql`select profile_id from ${sql.identifier(PROFILES_TABLE)} where ${scope} and group_key = ${groupKey} and properties->>${property}::text = ${value}`,
    );
    return rows.map((row) => row.profile_id);
  }
}
