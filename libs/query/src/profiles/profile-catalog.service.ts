import { Clock } from '@analytics/clock';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { bucketKeys, DateBuckets } from '../time/buckets';
import { formatDay } from '../time/utc-days';
import { TimeZone } from '../time/time-zone';
import { ProfileCatalogRepository } from './profile-catalog.repository';

export interface RevenueEntry {
  amount: number;
  count: number;
  paid_count: number;
}

export interface RevenueResult {
  computed_at: string;
  /** `$overall` (the whole range) first, then every bucket of the range by its first day, empty ones too. */
  results: Record<string, RevenueEntry>;
  session_id: string;
  status: 'ok';
}

export interface RevenueRequest {
  fromDay: number;
  toDay: number;
  buckets: DateBuckets;
}

/** Float sums of currency amounts: rounded to a millionth so 19.99 + 10 reads 29.99. */
const rounded = (amount: number) => Math.round(amount * 1e6) / 1e6;

/**
 * What the ETL connectors read about user profiles: the property catalog (/engage/properties) and
 * the revenue of `$transactions` (/engage/revenue), in the real API's shapes.
 */
@Injectable()
export class ProfileCatalogService {
  constructor(
    private readonly repository: ProfileCatalogRepository,
    private readonly clock: Clock,
  ) {}

  /** `{"status":"ok","results":{"<property>":{"count":N,"type":"string"}}}`, the most used first. */
  async properties(scope: ProjectScope, limit: number, signal?: AbortSignal) {
    const rows = await this.repository.properties(scope, limit, signal);
    return {
      computed_at: new Date(this.clock.now()).toISOString(),
      results: Object.fromEntries(rows.map((row) => [row.name, { count: row.count, type: row.type }])),
      status: 'ok' as const,
    };
  }

  /**
   * Per bucket: the amount of the transactions timed in it, and how many profiles paid in it;
   * `count` is the project's user profiles, the same on every row (the real API's rows read so).
   */
  async revenue(scope: ProjectScope, request: RevenueRequest, signal?: AbortSignal): Promise<RevenueResult> {
    const now = this.clock.now();
    const zone = TimeZone.of(scope.timeZone);
    const { fromMs, toEndMs } = zone.rangeMs(request.fromDay, request.toDay);
    const range = { buckets: request.buckets, fromDay: request.fromDay, fromMs, toMs: toEndMs, zone };
    const [rows, count] = await Promise.all([
      this.repository.revenue(scope, range, signal),
      this.repository.userProfiles(scope, signal),
    ]);
    const entry = (bucket: number | null): RevenueEntry => {
      const row = rows.find((candidate) => candidate.bucket === bucket);
      return { amount: rounded(row?.amount ?? 0), count, paid_count: row?.paidCount ?? 0 };
    };
    const results: Record<string, RevenueEntry> = { $overall: entry(null) };
    for (const key of bucketKeys(request.fromDay, request.toDay, request.buckets)) results[formatDay(key)] = entry(key);
    return { computed_at: new Date(now).toISOString(), results, session_id: String(now), status: 'ok' };
  }
}
