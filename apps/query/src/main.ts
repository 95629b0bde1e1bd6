import 'reflect-metadata';
import { AppConfig } from '@analytics/config';
import { QueryModule } from '@analytics/query';
import { engineNeeds, PlatformModule, runService } from '@analytics/runtime';
import { DynamicModule, Module } from '@nestjs/common';

/** The query service on its own: /api/query/* and /api/2.0/* reports. Needs ClickHouse and Postgres. */
@Module({})
class QueryAppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: QueryAppModule, imports: [PlatformModule.forRoot(config, engineNeeds(config, ['query'])), QueryModule] };
  }
}

void runService((config) => QueryAppModule.forRoot(config), 'Query service');
