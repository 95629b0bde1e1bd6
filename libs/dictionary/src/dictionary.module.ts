import { AuthModule } from '@analytics/auth';
import { jsonBody } from '@analytics/http';
import { RateLimitsModule } from '@analytics/rate-limits';
import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { AppConfig } from '@analytics/config';
import { DictionarySettings } from './dictionary-settings';
import { DroppedDataMetrics } from './dropped-data.metrics';
import { SchemaEventDictionaryProvider } from './schema-event-dictionary.provider';
import { SchemasController } from './schemas.controller';
import { SchemasRepository } from './schemas.repository';
import { SchemasService } from './schemas.service';
import { SeenEventsRepository } from './seen-events.repository';

/**
 * What ingestion needs of the dictionary: the project's `dropped` flags, from Postgres only (a
 * gateway with a broker opens no ClickHouse). One instance per process, shared with
 * {@link DictionaryModule}, so a change made here reaches this process's gateway at once.
 */
@Module({
  providers: [{ provide: DictionarySettings, useFactory: DictionarySettings.fromConfig, inject: [AppConfig] }, SchemasRepository, DroppedDataMetrics, SchemaEventDictionaryProvider],
  exports: [DictionarySettings, SchemasRepository, SchemaEventDictionaryProvider],
})
export class EventDictionaryModule {}

/** The data-dictionary API, /api/app/projects/{projectId}/schemas (a management service part). */
@Module({
  imports: [AuthModule, RateLimitsModule, EventDictionaryModule],
  controllers: [SchemasController],
  providers: [SchemasService, SeenEventsRepository],
  exports: [SchemasService],
})
export class DictionaryModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(jsonBody('app')).forRoutes(SchemasController);
  }
}
