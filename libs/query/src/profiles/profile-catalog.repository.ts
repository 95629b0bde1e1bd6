import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { QueryRunner } from '../clickhouse/query-runner';
import { DateBuckets } from '../time/buckets';
import { TimeZone } from '../time/time-zone';
import { profilePropertiesSql, revenueSql, userProfileCountSql } from './profile-catalog-sql';

export interface ProfileProperty {
  name: string;
  count: number;
  type: string;
}

/** Revenue of one date bucket (`bucket`: its first UTC day), or of the whole range (`bucket` null). */
export interface RevenueRow {
  bucket: number | null;
  amount: number;
  paidCount: number;
}

/** The user profiles' catalog and revenue, read from the profile store's ClickHouse mirror. */
@Injectable()
export class ProfileCatalogRepository {
  constructor(private readonly runner: QueryRunner) {}

  async properties(scope: ProjectScope, limit: number, signal?: AbortSignal): Promise<ProfileProperty[]> {
    const rows = await this.runner.rows<{ name: string; count: number | string; type: string }>(
      profilePropertiesSql(scope, limit),
      signal,
    );
    return rows.map((row) => ({ name: row.name, count: Number(row.count), type: row.type }));
  }

  async revenue(
    scope: ProjectScope,
    range: { buckets: DateBuckets; fromDay: number; fromMs: number; toMs: number; zone: TimeZone },
    signal?: AbortSignal,
  ): Promise<RevenueRow[]> {
    const rows = await this.runner.rows<{
      bucket: number | string | null;
      amount: number;
      paid_count: number | string;
    }>(revenueSql(scope, range.buckets, range.fromDay, range.fromMs, range.toMs, range.zone), signal);
    return rows.map((row) => ({
      bucket: row.bucket === null ? null : Number(row.bucket),
      amount: Number(row.amount),
      paidCount: Number(row.paid_count),
    }));
  }

  async userProfiles(scope: ProjectScope, signal?: AbortSignal): Promise<number> {
    const [row] = await this.runner.rows<{ profiles: number | string }>(userProfileCountSql(scope), signal);
    return Number(row?.profiles ?? 0);
  }
}
