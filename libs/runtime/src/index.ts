export { EngineNeeds, PlatformModule } from './platform.module';
export { createServiceApp, listenManagement, loadConfigOrExit, RootModuleFactory, runService } from './service-app';
export { schemaLag, waitForSchema } from './schema-lag';
export { firstStart } from './first-start';
export { CLICKHOUSE_MIGRATIONS } from './clickhouse-migrations';
