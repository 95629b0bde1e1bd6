import { AuthModule } from '@analytics/auth';
import { AppConfig } from '@analytics/config';
import { jsonBody } from '@analytics/http';
import { installationSecret } from '@analytics/object-store';
import { OutboundModule } from '@analytics/outbound';
import { ProjectsModule } from '@analytics/projects';
import { InsightsModule } from '@analytics/query';
import { SavedReportsStoreModule } from '@analytics/reports';
import { SecretBox } from '@analytics/secrets';
import { DynamicModule, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { AlertChecker } from './alert-checker';
import { ALERT_SETTINGS, AlertSettings, DEFAULT_ALERT_SETTINGS } from './alert-settings';
import { AlertSweep } from './alert-sweep';
import { AlertsController } from './alerts.controller';
import { AlertsRepository, DueAlertsRepository } from './alerts.repository';
import { AlertsService } from './alerts.service';

/**
 * Signing secrets are sealed under the installation's link secret (DOWNLOAD_LINK_SECRET, or the
 * generated one), as pipeline destination keys are: one value on every replica, no new setting.
 */
const secretBox = async (config: AppConfig) => new SecretBox(await installationSecret(config), 'alert-signing-secrets');

/**
 * Alerts: /api/app/projects/{projectId}/alerts and the scheduled checks behind them. Needs JobsModule
 * (global) beside the platform's Postgres and ClickHouse (the checks compute insights reports).
 */
@Module({})
export class AlertsModule implements NestModule {
  static forRoot(settings: Partial<AlertSettings> = {}): DynamicModule {
    return {
      module: AlertsModule,
      imports: [AuthModule, OutboundModule, ProjectsModule, SavedReportsStoreModule, InsightsModule],
      controllers: [AlertsController],
      providers: [
        { provide: ALERT_SETTINGS, useValue: { ...DEFAULT_ALERT_SETTINGS, ...settings } },
        { provide: SecretBox, useFactory: secretBox, inject: [AppConfig] },
        AlertsRepository,
        DueAlertsRepository,
        AlertsService,
        AlertChecker,
        AlertSweep,
      ],
      exports: [AlertSweep],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(jsonBody('app')).forRoutes(AlertsController);
  }
}
