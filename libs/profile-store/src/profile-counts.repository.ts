import { Postgres, selectRows } from '@analytics/postgres';
import { pgSql, ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { PROFILES_TABLE } from './profiles-tables';

/** How many live profiles a project holds: user profiles and group profiles (of every group key). */
export interface ProfileCounts {
  users: number;
  groups: number;
}

type CountRow = { users: string | number; groups: string | number };

const COUNTS = sql`count(*) filter (where group_key = '') as users, count(*) filter (where group_key <> '') as groups`;
const counts = (row: CountRow | undefined): ProfileCounts => ({
  users: Number(row?.users ?? 0),
  groups: Number(row?.groups ?? 0),
});

/** Profile counts from the Postgres source of truth (a deleted profile's row is gone), read by the primary key. */
@Injectable()
export class ProfileCountsRepository {
  constructor(private readonly postgres: Postgres) {}

  async count(scope: ProjectScope): Promise<ProfileCounts> {
    const [row] = await selectRows<CountRow>(
      this.postgres.db,
      pgSql`select ${COUNTS} from ${sql.identifier(PROFILES_TABLE)} where ${scope}`,
    );
    return counts(row);
  }

  /** Every project's counts in one statement: for the usage gauges, not for a request. */
  async countByProject(): Promise<Map<number, ProfileCounts>> {
    const rows = await selectRows<CountRow & { project_id: number }>(
      this.postgres.db,
      pgSql`select project_id, ${COUNTS} from ${sql.identifier(PROFILES_TABLE)} group by project_id`,
    );
    return new Map(rows.map((row) => [Number(row.project_id), counts(row)]));
  }
}
