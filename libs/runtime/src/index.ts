export { EngineNeeds, PlatformModule } from './platform.module';
export { createServiceApp, loadConfigOrExit, RootModuleFactory, runService } from './service-app';
export { firstStart } from './first-start';
export { CLICKHOUSE_MIGRATIONS } from './clickhouse-migrations';
