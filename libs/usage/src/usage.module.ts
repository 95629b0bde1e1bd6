import { AuthModule } from '@analytics/auth';
import { ProfileStoreModule } from '@analytics/profile-store';
import { Module } from '@nestjs/common';
import { UsageController } from './usage.controller';
import { UsageMetrics } from './usage-metrics';
import { UsageRepository } from './usage.repository';
import { UsageService } from './usage.service';

/** A project's usage, GET /api/app/projects/{id}/usage, and the per-project usage gauges on /metrics (a management service part). */
@Module({
  imports: [AuthModule, ProfileStoreModule],
  controllers: [UsageController],
  providers: [UsageRepository, UsageService, UsageMetrics],
})
export class UsageModule {}
