export { AppConfig, DownloadLinkSettings, KafkaSettings, ObjectStoreSettings, RegionHost } from './app-config';
export { ConfigModule } from './config.module';
export { LOG_LEVELS, LogLevel, SERVICE_NAMES, ServiceName } from './constants';
export { ConfigError, describeEnvironment, environmentVariableNames, loadConfig } from './load-config';
export { Network, parseNetwork } from './network';
export { maskSecret } from './secret.decorator';
export { oncePerConfig } from './once-per-config';
