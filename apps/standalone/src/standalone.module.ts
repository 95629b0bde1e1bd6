import { AppConfig } from '@analytics/config';
import { ProjectsModule } from '@analytics/projects';
import { engineNeeds, PlatformModule } from '@analytics/runtime';
import { DynamicModule, Module } from '@nestjs/common';

/** Every service named in SERVICES (default: all), in one process on one port. */
@Module({})
export class StandaloneModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: StandaloneModule,
      imports: [PlatformModule.forRoot(config, engineNeeds(config)), ProjectsModule],
    };
  }
}
