import 'reflect-metadata';
import { AppConfig } from '@analytics/config';
import { ExportModule } from '@analytics/export';
import { engineNeeds, PlatformModule, runService } from '@analytics/runtime';
import { DynamicModule, Module } from '@nestjs/common';

/** The data service on its own: /api/2.0/export. Needs ClickHouse and Postgres. */
@Module({})
class ExportAppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: ExportAppModule, imports: [PlatformModule.forRoot(config, engineNeeds(config, ['export'])), ExportModule] };
  }
}

void runService((config) => ExportAppModule.forRoot(config), 'Export service');
