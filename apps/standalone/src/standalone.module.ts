import { AccountsModule } from '@analytics/accounts';
import { AppConfig } from '@analytics/config';
import { EventWriterModule } from '@analytics/event-writer';
import { ExportModule } from '@analytics/export';
import { IngestModule } from '@analytics/ingest';
import { ProfilesModule } from '@analytics/profiles';
import { QueryModule } from '@analytics/query';
import { SavedReportsModule } from '@analytics/reports';
import { ManagementModule } from '@analytics/management';
import { AnnotationsModule } from '@analytics/annotations';
import { DictionaryModule } from '@analytics/dictionary';
import { engineNeeds, PlatformModule } from '@analytics/runtime';
import { DynamicModule, Module, Type } from '@nestjs/common';

/** The service modules of SERVICES that exist so far, as the standalone and the thin apps mount them. */
export function serviceModules(config: AppConfig): (DynamicModule | Type<unknown>)[] {
  const modules: (DynamicModule | Type<unknown>)[] = [];
  if (config.runs('ingest')) modules.push(IngestModule.forRoot(config));
  if (config.runs('writer') && config.kafka) modules.push(EventWriterModule.forRoot(config));
  if (config.runs('export')) modules.push(ExportModule);
  if (config.runs('management')) modules.push(ManagementModule, AnnotationsModule, DictionaryModule);
  if (config.runs('query')) modules.push(QueryModule);
  if (config.runs('management')) modules.push(SavedReportsModule);
  modules.push(ProfilesModule.forRoot(config));
  return modules;
}

/** Every service named in SERVICES (default: all), in one process on one port. */
@Module({})
export class StandaloneModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: StandaloneModule,
      imports: [PlatformModule.forRoot(config, engineNeeds(config)), AccountsModule, ...serviceModules(config)],
    };
  }
}
