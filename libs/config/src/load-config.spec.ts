import { ConfigError, describeEnvironment, environmentVariableNames, loadConfig } from './load-config';

describe('loadConfig', () => {
  it('fills every default from an empty environment', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.clickhouseUrl).toBe(`chdb:${config.dataDir}/clickhouse`);
    expect(config.databaseUrl).toBe(`pglite:${config.dataDir}/postgres`);
    expect(config.kafka).toBeUndefined();
    expect(config.services).toEqual(['ingest', 'writer', 'query', 'export', 'management', 'compliance']);
    expect(config.logLevel).toBe('info');
    expect(config.migrateOnStart).toBe(true);
  });

  it('derives the embedded engines from DATA_DIR and parses typed values', () => {
    const config = loadConfig({
      PORT: '9000',
      DATA_DIR: '/tmp/x',
      KAFKA_BROKERS: 'a:9092, b:9093',
      SERVICES: 'ingest,writer',
      MIGRATE_ON_START: 'no',
    });
    expect(config.port).toBe(9000);
    expect(config.clickhouseUrl).toBe('chdb:/tmp/x/clickhouse');
    expect(config.databaseUrl).toBe('pglite:/tmp/x/postgres');
    expect(config.kafka?.brokers).toEqual(['a:9092', 'b:9093']);
    expect(config.runs('writer')).toBe(true);
    expect(config.runs('query')).toBe(false);
    expect(config.migrateOnStart).toBe(false);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', KAFKA_BROKERS: ' ' }).port).toBe(8080);
  });

  it('reports every bad variable by name in one error', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', SERVICES: 'ingest,warp', KAFKA_BROKERS: 'nohost' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('PORT must be a whole number from 0 to 65535 (got "eighty")');
    expect(message).toContain('LOG_LEVEL must be one of');
    expect(message).toContain('SERVICES must list services among');
    expect(message).toContain('KAFKA_BROKERS must be a comma-separated list of host:port');
    expect((error as ConfigError).problems).toHaveLength(4);
  });

  it('never echoes a secret in an error or a description', () => {
    expect(() => loadConfig({ BOOTSTRAP_PROJECT_SECRET: 'short' })).toThrow(/BOOTSTRAP_PROJECT_SECRET .*\(got "\*\*\*"\)/);
    const described = describeEnvironment({
      DATABASE_URL: 'postgres://app:hunter2@db:5432/analytics',
      BOOTSTRAP_PROJECT_SECRET: 'abcdefghijklmnopqrstuvwxyz',
      PORT: '1',
      UNRELATED: 'x',
    });
    expect(described).toEqual({
      DATABASE_URL: 'postgres://app:***@db:5432/analytics',
      BOOTSTRAP_PROJECT_SECRET: '***',
      PORT: '1',
    });
  });

  it('declares the settings README documents', () => {
    expect(environmentVariableNames()).toEqual(
      expect.arrayContaining(['PORT', 'DATA_DIR', 'CLICKHOUSE_URL', 'DATABASE_URL', 'KAFKA_BROKERS', 'SERVICES', 'LOG_LEVEL']),
    );
  });
});
