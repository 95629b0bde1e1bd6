export { eventually } from './eventually';
export { startTestApp, TestApp } from './test-app';
export {
  createPostgresDatabase,
  createTestClickHouse,
  createTestDatabase,
  PostgresKind,
  postgresServerAvailable,
  temporaryDirectory,
  TestResource,
  testKafkaBrokers,
  uniqueTopicPrefix,
} from './test-engines';
export { useTestClickHouseClient } from './test-clickhouse-client';
export { createTestEnvironment, TestEnvironment, TestEnvironmentOptions } from './test-environment';
export { ServiceProcess, spawnService } from './service-process';
export { freePort } from './free-port';
export { installKafkaSendGate } from './kafka-send-gate';
