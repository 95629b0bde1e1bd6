import { AuthModule } from '@analytics/auth';
import { Clock } from '@analytics/clock';
import { IntakeOptions } from '@analytics/config';
import { EventStoreModule } from '@analytics/event-store';
import { jsonBody } from '@analytics/http';
import { EventIntakeModule } from '@analytics/ingest';
import { WriterProgress } from '@analytics/kafka';
import { OutboundModule } from '@analytics/outbound';
import { ProfileStoreModule } from '@analytics/profile-store';
import { ProfileIntakeModule } from '@analytics/profiles';
import { RateLimitsModule } from '@analytics/rate-limits';
import { DynamicModule, MiddlewareConsumer, Module, NestModule, Provider } from '@nestjs/common';
import { CredentialsCipher } from './credentials-cipher';
import { ImportedDataRepository } from './imported-data.repository';
import { ImportRunner } from './import-runner';
import { ImportRunsRepository } from './import-runs.repository';
import {
  DEFAULT_WAREHOUSE_IMPORT_SETTINGS,
  WAREHOUSE_IMPORT_SETTINGS,
  WarehouseImportSettings,
} from './warehouse-import-settings';
import { WarehouseImportsController, WarehouseSourcesController } from './warehouse-imports.controller';
import { WarehouseImportsRepository } from './warehouse-imports.repository';
import { WarehouseImportsService } from './warehouse-imports.service';
import { WarehouseImportsWorker } from './warehouse-imports.worker';
import { WarehouseReaders } from './warehouse-readers';

/**
 * The API of warehouse sources and imports, /api/app/projects/{projectId}/warehouse-sources (a
 * management service part: Postgres only, no Kafka). The imports controller comes first: its
 * literal `/imports` must win over `:sourceId`.
 */
@Module({
  imports: [AuthModule, OutboundModule, RateLimitsModule],
  controllers: [WarehouseImportsController, WarehouseSourcesController],
  providers: [WarehouseImportsRepository, WarehouseImportsService, CredentialsCipher],
  exports: [WarehouseImportsService],
})
export class WarehouseImportsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(jsonBody('app')).forRoutes(WarehouseImportsController, WarehouseSourcesController);
  }
}

export interface WarehouseImportsWorkerOptions extends Partial<WarehouseImportSettings> {
  /** Tests pass a ManualClock. */
  clock?: Clock;
}

/**
 * The runs: jobs (JobsModule, global, must be mounted in the process) that read warehouses and hand
 * rows to the event and profile intake (Kafka, or in-process without a broker).
 */
@Module({})
export class WarehouseImportsWorkerModule {
  /** `intake.broker`: rows go to Kafka, or without a broker to the writers in this process (the service map decides). */
  static forRoot(intake: IntakeOptions, options: WarehouseImportsWorkerOptions = {}): DynamicModule {
    const { clock, ...settings } = options;
    const providers: Provider[] = [
      { provide: WAREHOUSE_IMPORT_SETTINGS, useValue: { ...DEFAULT_WAREHOUSE_IMPORT_SETTINGS, ...settings } },
      ImportRunsRepository,
      CredentialsCipher,
      ImportedDataRepository,
      ImportRunner,
      WarehouseReaders,
      WarehouseImportsWorker,
      WriterProgress,
    ];
    if (clock) providers.push({ provide: Clock, useValue: clock });
    return {
      module: WarehouseImportsWorkerModule,
      imports: [
        AuthModule,
        EventIntakeModule.forRoot(intake),
        EventStoreModule,
        OutboundModule,
        ProfileIntakeModule.forRoot(intake),
        ProfileStoreModule,
      ],
      providers,
      exports: [ImportRunner, WarehouseImportsWorker],
    };
  }
}
