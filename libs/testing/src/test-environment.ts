import { AppConfig, loadConfig } from '@analytics/config';
import { join } from 'node:path';
import {
  createTestClickHouse,
  createTestDatabase,
  PostgresKind,
  temporaryDirectory,
  testKafkaBrokers,
  uniqueTopicPrefix,
} from './test-engines';

export interface TestEnvironmentOptions {
  /** Use the real broker (KAFKA_BROKERS set) instead of the in-process hand-off. */
  kafka?: boolean;
  postgres?: PostgresKind;
  /** Extra variables, e.g. SERVICES or limits. */
  env?: Record<string, string>;
}

export interface TestEnvironment {
  env: Record<string, string>;
  config: AppConfig;
  dispose(): Promise<void>;
}

/** Fresh engines for one test file, as the environment a service process would get. */
export async function createTestEnvironment(options: TestEnvironmentOptions = {}): Promise<TestEnvironment> {
  const dataDir = temporaryDirectory('test-data');
  const clickhouse = await createTestClickHouse();
  const postgres = await createTestDatabase(options.postgres);
  const env: Record<string, string> = {
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: join(dataDir.path, 'data'),
    CLICKHOUSE_URL: clickhouse.url,
    DATABASE_URL: postgres.url,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...(options.kafka
      ? {
          KAFKA_BROKERS: testKafkaBrokers(),
          KAFKA_TOPIC_PREFIX: uniqueTopicPrefix(),
          KAFKA_EVENTS_PARTITIONS: '4',
          KAFKA_PROFILES_PARTITIONS: '4',
        }
      : {}),
    ...options.env,
  };
  return {
    env,
    config: loadConfig(env),
    async dispose() {
      await Promise.allSettled([clickhouse.dispose(), postgres.dispose()]);
      dataDir.remove();
    },
  };
}
