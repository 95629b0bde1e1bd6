import 'reflect-metadata';
import { AppConfig } from '@analytics/config';
import { AnnotationsModule } from '@analytics/annotations';
import { DictionaryModule } from '@analytics/dictionary';
import { ManagementModule } from '@analytics/management';
import { engineNeeds, PlatformModule, runService } from '@analytics/runtime';
import { DynamicModule, Module } from '@nestjs/common';

/** The management service on its own: /api/app/* (accounts, projects). Needs Postgres (and ClickHouse for the dictionary). */
@Module({})
class ManagementAppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: ManagementAppModule, imports: [PlatformModule.forRoot(config, engineNeeds(config, ['management'])), ManagementModule, AnnotationsModule, DictionaryModule] };
  }
}

void runService((config) => ManagementAppModule.forRoot(config), 'Management service');
