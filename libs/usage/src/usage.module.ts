import { AuthModule } from '@analytics/auth';
import { ProfileStoreModule } from '@analytics/profile-store';
import { RateLimitsModule } from '@analytics/rate-limits';
import { DynamicModule, Module } from '@nestjs/common';
import { UsageController } from './usage.controller';
import { UsageMetrics } from './usage-metrics';
import { UsageRepository } from './usage.repository';
import { UsageService } from './usage.service';

/**
 * A project's usage, GET /api/app/projects/{id}/usage, and with `gauges` the per-project usage gauges on
 * /metrics (a management service part; the service map reads USAGE_METRICS).
 */
@Module({})
export class UsageModule {
  static forRoot({ gauges }: { gauges: boolean }): DynamicModule {
    return {
      module: UsageModule,
      imports: [AuthModule, RateLimitsModule, ProfileStoreModule],
      controllers: [UsageController],
      providers: [UsageRepository, UsageService, ...(gauges ? [UsageMetrics] : [])],
    };
  }
}
