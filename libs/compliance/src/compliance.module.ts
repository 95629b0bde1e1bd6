import { AuthModule } from '@analytics/auth';
import { ErasedIdsRepository } from '@analytics/erasures';
import { EventStoreModule } from '@analytics/event-store';
import { jsonBody } from '@analytics/http';
import { IdentityRepository } from '@analytics/identity';
import { WriterProgress } from '@analytics/kafka';
import { ObjectStoreModule } from '@analytics/object-store';
import { GroupKeyRegistryModule, ProjectsModule } from '@analytics/projects';
import { RateLimitsModule } from '@analytics/rate-limits';
import { DynamicModule, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { ComplianceAccessGuard } from './compliance-access.guard';
import { ComplianceJobsRepository } from './compliance-jobs.repository';
import { ComplianceStaging } from './compliance-staging';
import { COMPLIANCE_SETTINGS, ComplianceSettings, DEFAULT_COMPLIANCE_SETTINGS } from './compliance-settings';
import { DataDeletionsController, DataRetrievalsController } from './compliance.controller';
import { ComplianceService } from './compliance.service';
import { ComplianceWorker } from './compliance.worker';
import { DeletionRepository } from './deletion.repository';
import { RetrievalRepository } from './retrieval.repository';

/**
 * GDPR/CCPA retrievals and deletions: /api/app/data-retrievals|data-deletions/v3.0 and the workers
 * that run them. Needs JobsModule (global) beside the platform's Postgres and ClickHouse.
 */
@Module({})
export class ComplianceModule implements NestModule {
  static forRoot(settings: Partial<ComplianceSettings> = {}): DynamicModule {
    return {
      module: ComplianceModule,
      imports: [
        AuthModule,
        RateLimitsModule,
        ObjectStoreModule,
        GroupKeyRegistryModule,
        ProjectsModule,
        EventStoreModule,
      ],
      controllers: [DataRetrievalsController, DataDeletionsController],
      providers: [
        { provide: COMPLIANCE_SETTINGS, useValue: { ...DEFAULT_COMPLIANCE_SETTINGS, ...settings } },
        ComplianceAccessGuard,
        ComplianceJobsRepository,
        ComplianceService,
        ComplianceStaging,
        ComplianceWorker,
        DeletionRepository,
        ErasedIdsRepository,
        IdentityRepository,
        RetrievalRepository,
        WriterProgress,
      ],
      exports: [ComplianceService],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(jsonBody('app')).forRoutes(DataRetrievalsController, DataDeletionsController);
  }
}
