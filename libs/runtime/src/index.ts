export { MigrateOnStartModule } from './migrate-on-start.module';
export { EngineNeeds, PlatformModule } from './platform.module';
export { closeOnSignals, createServiceApp, loadConfigOrExit, RootModuleFactory, runService } from './service-app';
export { firstStart, welcomeMessage } from './first-start';
