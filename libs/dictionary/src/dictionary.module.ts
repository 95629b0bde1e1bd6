import { RateLimitsModule } from '@analytics/rate-limits';
import { Module } from '@nestjs/common';
import { AppConfig } from '@analytics/config';
import { DictionarySettings } from './dictionary-settings';
import { DroppedDataMetrics } from './dropped-data.metrics';
import { SchemaEventDictionaryProvider } from './schema-event-dictionary.provider';
import { SchemasRepository } from './schemas.repository';
import { SchemasService } from './schemas.service';
import { SeenEventsRepository } from './seen-events.repository';

/**
 * What ingestion needs of the dictionary: the project's `dropped` flags, from Postgres only (a
 * gateway with a broker opens no ClickHouse). One instance per process, shared with
 * {@link SchemasStoreModule} (the API's), so a change made here reaches this process's gateway at once.
 */
@Module({
  providers: [
    { provide: DictionarySettings, useFactory: DictionarySettings.fromConfig, inject: [AppConfig] },
    SchemasRepository,
    DroppedDataMetrics,
    SchemaEventDictionaryProvider,
  ],
  exports: [DictionarySettings, SchemasRepository, SchemaEventDictionaryProvider],
})
export class EventDictionaryModule {}

/**
 * The data dictionary's rules over the stored schemas and the events seen, for its API (whose routes
 * are the management lib's DictionaryModule).
 */
@Module({
  imports: [RateLimitsModule, EventDictionaryModule],
  providers: [SchemasService, SeenEventsRepository],
  exports: [SchemasService],
})
export class SchemasStoreModule {}
