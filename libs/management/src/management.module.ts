import { AuthModule } from '@analytics/auth';
import { jsonBody } from '@analytics/http';
import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { MeController } from './me.controller';
import { ProjectEventsRepository } from './project-events.repository';
import { ProjectSettingsService } from './project-settings.service';
import { OrganizationController, ProjectController } from './projects.controller';
import { ServiceAccountsController } from './service-accounts.controller';

/** The management service's accounts and projects: /api/app/me, organizations, service accounts, projects. */
@Module({
  imports: [AuthModule],
  controllers: [MeController, ServiceAccountsController, OrganizationController, ProjectController],
  providers: [ProjectEventsRepository, ProjectSettingsService],
})
export class ManagementModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(jsonBody('app'))
      .forRoutes(MeController, ServiceAccountsController, OrganizationController, ProjectController);
  }
}
