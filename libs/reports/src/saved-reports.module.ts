import { AuthModule } from '@analytics/auth';
import { jsonBody } from '@analytics/http';
import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { BookmarksController } from './bookmarks.controller';
import { CohortsController } from './cohorts.controller';
import { SavedFunnelsController } from './funnels.controller';
import { RetentionReportsController } from './retention-reports.controller';
import { SavedReportsRepository } from './saved-reports.repository';
import { SavedReportsService } from './saved-reports.service';

/** Saved reports' storage, for the services that read them (the query service). */
@Module({ providers: [SavedReportsRepository, SavedReportsService], exports: [SavedReportsService] })
export class SavedReportsStoreModule {}

/** The management endpoints of saved reports: /api/app/projects/{projectId}/bookmarks, funnels, cohorts, retention-reports. */
@Module({
  imports: [AuthModule, SavedReportsStoreModule],
  controllers: [BookmarksController, SavedFunnelsController, CohortsController, RetentionReportsController],
})
export class SavedReportsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(jsonBody('app'))
      .forRoutes(BookmarksController, SavedFunnelsController, CohortsController, RetentionReportsController);
  }
}
