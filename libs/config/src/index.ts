export { AppConfig, ObjectStoreSettings, RegionHost } from './app-config';
export { KafkaSettings } from './kafka-settings';
export { ReadingLimits } from './limits-environment';
export { ConfigModule } from './config.module';
export { SERVICE_NAMES, ServiceName } from './constants';
export { ConfigError, describeEnvironment, environmentVariableNames, loadConfig } from './load-config';
export { parseNetwork } from './network';
export { IntakeOptions, oncePerConfig, oncePerIntake } from './once-per-config';
