import { AppConfig, ServiceName } from '@analytics/config';
import { PlatformModule } from '@analytics/runtime';
import { DynamicModule, Module } from '@nestjs/common';
import { engineNeeds, readinessNeeds } from './engine-needs';
import { servicesModule } from './service-map';

/**
 * The root module of a process that runs these services: the platform (config, engines, migrations,
 * observability) and each service's row of the map. A thin app passes its one service; the
 * standalone passes SERVICES (default: all).
 */
@Module({})
export class ServiceRootModule {
  static forRoot(config: AppConfig, services: readonly ServiceName[] = config.services): DynamicModule {
    return {
      module: ServiceRootModule,
      imports: [
        PlatformModule.forRoot(config, engineNeeds(config, services), readinessNeeds(config, services)),
        servicesModule(config, services),
      ],
    };
  }
}
