import { AuthModule } from '@analytics/auth';
import { jsonBody } from '@analytics/http';
import { AppConfig } from '@analytics/config';
import { installationSecret } from '@analytics/object-store';
import { OutboundModule } from '@analytics/outbound';
import { ProjectsModule } from '@analytics/projects';
import { SecretBox } from '@analytics/secrets';
import { DynamicModule, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { PipelineExportRepository } from './pipeline-export.repository';
import { PipelineRunner } from './pipeline-runner';
import { DEFAULT_PIPELINE_SETTINGS, PIPELINE_SETTINGS, PipelineSettings } from './pipeline-settings';
import { PipelineWindowsRepository } from './pipeline-windows.repository';
import { PipelinesController } from './pipelines.controller';
import { PipelinesRepository } from './pipelines.repository';
import { PipelinesService } from './pipelines.service';
import { WindowExportService } from './window-export.service';

/**
 * Destination keys are sealed under the installation's link secret (DOWNLOAD_LINK_SECRET, or the
 * generated one): already required to be one value on every replica, so no new setting is needed.
 */
const secretBox = async (config: AppConfig) =>
  new SecretBox(await installationSecret(config), 'pipeline-destination-keys');

/**
 * Data pipelines: /api/2.0/nessie/pipeline/* and the window exports behind them. Needs JobsModule
 * (global) beside the platform's Postgres and ClickHouse.
 */
@Module({})
export class PipelinesModule implements NestModule {
  static forRoot(settings: Partial<PipelineSettings> = {}): DynamicModule {
    return {
      module: PipelinesModule,
      imports: [AuthModule, OutboundModule, ProjectsModule],
      controllers: [PipelinesController],
      providers: [
        { provide: PIPELINE_SETTINGS, useValue: { ...DEFAULT_PIPELINE_SETTINGS, ...settings } },
        { provide: SecretBox, useFactory: secretBox, inject: [AppConfig] },
        PipelineExportRepository,
        PipelineRunner,
        PipelineWindowsRepository,
        PipelinesRepository,
        PipelinesService,
        WindowExportService,
      ],
      exports: [PipelinesService, PipelineRunner],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(jsonBody('query')).forRoutes(PipelinesController);
  }
}
