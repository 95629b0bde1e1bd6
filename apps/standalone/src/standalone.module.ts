import { AccountsModule } from '@analytics/accounts';
import { AppConfig } from '@analytics/config';
import { ServiceRootModule } from '@analytics/service-map';
import { DynamicModule, Module } from '@nestjs/common';

/** Every service named in SERVICES (default: all) in one process on one port, plus the accounts its first start creates. */
@Module({})
export class StandaloneModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: StandaloneModule, imports: [ServiceRootModule.forRoot(config), AccountsModule] };
  }
}
