import 'reflect-metadata';
import { AppConfig } from '@analytics/config';
import { EventWriterModule } from '@analytics/event-writer';
import { ProfilesModule } from '@analytics/profiles';
import { engineNeeds, PlatformModule, runService } from '@analytics/runtime';
import { DynamicModule, Module } from '@nestjs/common';

/** The writer on its own: consumes the events topic into ClickHouse. Serves only health and metrics over HTTP. */
@Module({})
class WriterAppModule {
  static forRoot(config: AppConfig): DynamicModule {
    if (!config.kafka) throw new Error('the writer consumes Kafka: set KAFKA_BROKERS');
    return { module: WriterAppModule, imports: [PlatformModule.forRoot(config, engineNeeds(config, ['writer'])), EventWriterModule.forRoot(config), ProfilesModule.forRoot(config, ['writer'])] };
  }
}

void runService((config) => WriterAppModule.forRoot(config), 'Events writer');
