import { ClickHouseContainer } from '@testcontainers/clickhouse';
import { KafkaContainer } from '@testcontainers/kafka';
import { PostgreSqlContainer } from '@testcontainers/postgresql';

/** The path where Docker exists (never on our CI machines): the same three engines, as containers. */
export async function startContainerEngines(): Promise<{ env: Record<string, string>; stop(): Promise<void> }> {
  const [kafka, postgres, clickhouse] = await Promise.all([
    new KafkaContainer('confluentinc/cp-kafka:7.9.0').withKraft().start(),
    new PostgreSqlContainer('postgres:17-alpine').start(),
    new ClickHouseContainer('clickhouse/clickhouse-server:25.8-alpine').start(),
  ]);
  return {
    env: {
      TEST_KAFKA_BROKERS: `${kafka.getHost()}:${kafka.getMappedPort(9093)}`,
      TEST_POSTGRES_ADMIN_URL: postgres.getConnectionUri(),
      TEST_CLICKHOUSE_ADMIN_URL: clickhouse.getConnectionUrl(),
    },
    async stop() {
      await Promise.all([kafka.stop(), postgres.stop(), clickhouse.stop()]);
    },
  };
}
