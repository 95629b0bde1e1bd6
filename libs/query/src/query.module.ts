import { AppConfig } from '@analytics/config';
import { AuthModule } from '@analytics/auth';
import { jsonBody } from '@analytics/http';
import { LookupTablesReaderModule } from '@analytics/lookup-tables';
import { IdentityRepository } from '@analytics/identity';
import { ProfileStoreModule } from '@analytics/profile-store';
import { RateLimitsModule } from '@analytics/rate-limits';
import { SavedReportsStoreModule } from '@analytics/reports';
import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { QueryRunner } from './clickhouse/query-runner';
import { CohortMembership } from './cohorts/cohort-membership';
import { CohortsListController } from './cohorts/cohorts-list.controller';
import { CohortsListService } from './cohorts/cohorts-list.service';
import { EventCatalogController } from './events/event-catalog.controller';
import { EventCatalogRepository } from './events/event-catalog.repository';
import { EventCatalogService } from './events/event-catalog.service';
import { FlowsController } from './flows/flows.controller';
import { FlowsRepository } from './flows/flows.repository';
import { FlowsService } from './flows/flows.service';
import { FunnelsController } from './funnels/funnels.controller';
import { FunnelsRepository } from './funnels/funnels.repository';
import { FunnelsService } from './funnels/funnels.service';
import { InsightsController } from './insights/insights.controller';
import { InsightsRepository } from './insights/insights.repository';
import { InsightsService } from './insights/insights.service';
import { ProfileCatalogController } from './profiles/profile-catalog.controller';
import { ProfileCatalogRepository } from './profiles/profile-catalog.repository';
import { ProfileCatalogService } from './profiles/profile-catalog.service';
import { ProfileQueryController } from './profiles/profile-query.controller';
import { ProfileQueryService } from './profiles/profile-query.service';
import { QUERY_SETTINGS, querySettingsOf } from './query-settings';
import { RetentionController } from './retention/retention.controller';
import { RetentionRepository } from './retention/retention.repository';
import { RetentionService } from './retention/retention.service';
import { SegmentationController } from './segmentation/segmentation.controller';
import { SegmentationRepository } from './segmentation/segmentation.repository';
import { SegmentationService } from './segmentation/segmentation.service';
import { StreamController } from './stream/stream.controller';
import { StreamRepository } from './stream/stream.repository';
import { StreamService } from './stream/stream.service';

const controllers = [
  FunnelsController,
  RetentionController,
  SegmentationController,
  EventCatalogController,
  InsightsController,
  CohortsListController,
  StreamController,
  FlowsController,
];

/** What every report runs on: the settings (from the environment for now), the clock, the ClickHouse runner, the lookup tables. */
@Module({
  imports: [LookupTablesReaderModule],
  providers: [{ provide: QUERY_SETTINGS, useFactory: querySettingsOf, inject: [AppConfig] }, QueryRunner],
  exports: [QUERY_SETTINGS, QueryRunner, LookupTablesReaderModule],
})
export class QueryEngineModule {}

/** Insights reports computed in-process (the alerts' checks): the same service as /api/query/insights. */
@Module({
  imports: [QueryEngineModule, SavedReportsStoreModule],
  providers: [InsightsRepository, InsightsService],
  exports: [InsightsService],
})
export class InsightsModule {}

/** Cohort membership without the query API's routes: for the profile query's `filter_by_cohort`. */
@Module({
  imports: [QueryEngineModule, SavedReportsStoreModule],
  providers: [CohortMembership],
  exports: [CohortMembership],
})
export class CohortMembershipModule {}

/**
 * The query service: /api/query/* and /api/2.0/* (insights, funnels, retention, segmentation,
 * events, cohorts, flows, the activity stream). Needs ClickHouse and Postgres; saved reports are read from libs/reports.
 */
@Module({
  imports: [
    AuthModule,
    RateLimitsModule,
    SavedReportsStoreModule,
    QueryEngineModule,
    CohortMembershipModule,
    InsightsModule,
  ],
  controllers,
  providers: [
    FunnelsRepository,
    FunnelsService,
    RetentionRepository,
    RetentionService,
    SegmentationRepository,
    SegmentationService,
    EventCatalogRepository,
    EventCatalogService,
    CohortsListService,
    IdentityRepository,
    StreamRepository,
    StreamService,
    FlowsRepository,
    FlowsService,
  ],
  exports: [CohortMembershipModule, InsightsModule, FunnelsService, RetentionService],
})
export class QueryModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // Only POST /cohorts/list carries a body (project_id may come as a form field).
    consumer.apply(jsonBody('query')).forRoutes(CohortsListController);
  }
}

/**
 * The profile query, /api/query/engage and /api/2.0/engage: a reader of the profile store's
 * ClickHouse mirror beside the event reports (its `filter_by_cohort` reads saved cohorts), ids
 * resolved through identity_map; and the profiles' catalog and revenue (/engage/properties,
 * /engage/revenue) the ETL connectors read.
 */
@Module({
  imports: [AuthModule, RateLimitsModule, ProfileStoreModule, QueryEngineModule, CohortMembershipModule],
  controllers: [ProfileCatalogController, ProfileQueryController],
  providers: [ProfileQueryService, IdentityRepository, ProfileCatalogRepository, ProfileCatalogService],
})
export class ProfilesQueryModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(jsonBody('query')).forRoutes(ProfileQueryController, ProfileCatalogController);
  }
}
