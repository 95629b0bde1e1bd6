import 'reflect-metadata';
import { AppConfig } from '@analytics/config';
import { IngestModule } from '@analytics/ingest';
import { ProfilesModule } from '@analytics/profiles';
import { engineNeeds, PlatformModule, runService } from '@analytics/runtime';
import { DynamicModule, Module } from '@nestjs/common';

/** The ingestion gateway on its own: /import, /track (and /engage, /groups). Needs Kafka and Postgres. */
@Module({})
class IngestAppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: IngestAppModule, imports: [PlatformModule.forRoot(config, engineNeeds(config, ['ingest'])), IngestModule.forRoot(config), ProfilesModule.forRoot(config, ['ingest'])] };
  }
}

void runService((config) => IngestAppModule.forRoot(config), 'Ingestion gateway');
