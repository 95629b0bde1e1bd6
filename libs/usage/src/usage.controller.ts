import { CurrentAccess, ProjectAccess, ProjectAccessGuard, RequireRole } from '@analytics/auth';
import { Clock } from '@analytics/clock';
import { ApiQueryParameters, AppApiController, FROM_DATE_PARAMETER, ok, TO_DATE_PARAMETER } from '@analytics/http';
import { QueryQuotaInterceptor } from '@analytics/rate-limits';
import { Get, Query, UseInterceptors } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { DEFAULT_USAGE_DAYS, MAX_USAGE_DAYS, parseUsageRange } from './usage-range';
import { UsageService } from './usage.service';
import { usageJson } from './usage.views';

const RANGE = `\`per_day\` lists the days from from_date to to_date (UTC, inclusive, at most ${MAX_USAGE_DAYS}); default the last ${DEFAULT_USAGE_DAYS} days.`;

/** Scans the project's whole stored history (FINAL): it spends the query API's budget (QUERY_LIMIT_*), as a report does. */
@AppApiController('api/app/projects/:projectId/usage', { tag: 'projects', access: ProjectAccessGuard })
@UseInterceptors(QueryQuotaInterceptor)
export class UsageController {
  constructor(
    private readonly usage: UsageService,
    private readonly clock: Clock,
  ) {}

  @Get()
  @RequireRole('consumer')
  @ApiOperation({
    summary:
      'What the project stores: events (deduplicated: total, oldest, newest, per day), their estimated bytes on disk, profiles and groups, data retention',
  })
  @ApiQueryParameters([
    { ...FROM_DATE_PARAMETER, description: `First day of \`per_day\`, yyyy-mm-dd (UTC). ${RANGE}` },
    { ...TO_DATE_PARAMETER, description: `Last day of \`per_day\`, yyyy-mm-dd (UTC). ${RANGE}` },
  ])
  async get(
    @CurrentAccess() access: ProjectAccess,
    @Query('from_date') fromDate?: unknown,
    @Query('to_date') toDate?: unknown,
  ) {
    const range = parseUsageRange(fromDate, toDate, this.clock.date());
    return ok(usageJson(await this.usage.read(access.scope, range), access.project.dataRetentionDays));
  }
}
