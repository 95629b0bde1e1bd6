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

  it('starts with an empty WAREHOUSE_CREDENTIALS_KEY (an empty key in a secret), falling back to the link key', () => {
    expect(loadConfig({ WAREHOUSE_CREDENTIALS_KEY: '' }).warehouseCredentialsKey).toBeUndefined();
    expect(() => loadConfig({ WAREHOUSE_CREDENTIALS_KEY: 'short' })).toThrow(/WAREHOUSE_CREDENTIALS_KEY must be 32/);
  });

  it('refuses a request timeout below the header timeout, naming both settings', () => {
    expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '5000' })).toThrow(
      /HTTP_REQUEST_TIMEOUT_MS must be at least HTTP_HEADERS_TIMEOUT_MS \(20000\)/,
    );
    expect(loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '5000', HTTP_HEADERS_TIMEOUT_MS: '5000' }).http).toMatchObject({
      requestTimeoutMs: 5000,
      headersTimeoutMs: 5000,
    });
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
    expect(() => loadConfig({ BOOTSTRAP_PROJECT_SECRET: 'short' })).toThrow(
      /BOOTSTRAP_PROJECT_SECRET .*\(got "\*\*\*"\)/,
    );
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

  it('declares the settings docs/settings.md documents', () => {
    expect(environmentVariableNames()).toEqual(
      expect.arrayContaining([
        'PORT',
        'DATA_DIR',
        'CLICKHOUSE_URL',
        'DATABASE_URL',
        'KAFKA_BROKERS',
        'SERVICES',
        'LOG_LEVEL',
      ]),
    );
  });
});

/** The problems loadConfig reports for this environment (none when it loads). */
function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('object store and download link settings', () => {
  const secret = 'a'.repeat(32);

  it('keeps objects in a folder under DATA_DIR and makes links on localhost by default', () => {
    const config = loadConfig({ DATA_DIR: '/tmp/x', PORT: '9000' });
    expect(config.objectStore).toEqual({ kind: 'local', directory: '/tmp/x/objects' });
    expect(config.downloadLinks).toEqual({ secret: undefined, ttlSeconds: 86_400 });
    expect(config.exportPublicUrl).toBe('http://localhost:9000');
  });

  it('selects S3 with S3_BUCKET and reads its companions', () => {
    const config = loadConfig({
      S3_BUCKET: 'analytics-files',
      S3_ENDPOINT: 'http://minio:9000',
      S3_REGION: 'eu-west-1',
      S3_PREFIX: 'prod/analytics',
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'minio',
      S3_SECRET_ACCESS_KEY: 'minio-secret/+x',
      DOWNLOAD_LINK_SECRET: secret,
      DOWNLOAD_LINK_TTL_SECONDS: '3600',
      EXPORT_PUBLIC_URL: 'https://exports.example.com/',
    });
    expect(config.objectStore).toEqual({
      kind: 's3',
      bucket: 'analytics-files',
      endpoint: 'http://minio:9000',
      region: 'eu-west-1',
      prefix: 'prod/analytics/',
      forcePathStyle: true,
      credentials: { accessKeyId: 'minio', secretAccessKey: 'minio-secret/+x' },
    });
    expect(config.downloadLinks).toEqual({ secret, ttlSeconds: 3600 });
    expect(config.exportPublicUrl).toBe('https://exports.example.com');
  });

  it('leaves S3 credentials to the SDK chain and the region to us-east-1 when unset', () => {
    const config = loadConfig({ S3_BUCKET: 'files', DOWNLOAD_LINK_SECRET: secret });
    expect(config.objectStore).toEqual({
      kind: 's3',
      bucket: 'files',
      region: 'us-east-1',
      endpoint: undefined,
      forcePathStyle: false,
      prefix: '',
      credentials: undefined,
    });
  });

  it('requires one link secret for every replica when S3 is configured', () => {
    expect(problems({ S3_BUCKET: 'files' })).toEqual([
      expect.stringMatching(/^DOWNLOAD_LINK_SECRET .*required when S3_BUCKET is set$/),
    ]);
  });

  it('refuses S3 settings without a bucket, and one half of a key pair', () => {
    expect(problems({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toEqual([
      expect.stringMatching(/^S3_BUCKET .*required when any other S3_ variable is set$/),
    ]);
    const half = problems({ S3_BUCKET: 'files', DOWNLOAD_LINK_SECRET: secret, S3_SECRET_ACCESS_KEY: 'x'.repeat(20) });
    expect(half).toEqual([expect.stringMatching(/^S3_ACCESS_KEY_ID .*required with S3_SECRET_ACCESS_KEY$/)]);
  });

  it('reports every malformed value at once, secrets masked', () => {
    const found = problems({
      S3_BUCKET: 'Bad_Bucket',
      S3_ENDPOINT: 'minio:9000',
      S3_REGION: 'eu west',
      S3_PREFIX: '../up',
      S3_FORCE_PATH_STYLE: 'maybe',
      S3_ACCESS_KEY_ID: 'has space',
      S3_SECRET_ACCESS_KEY: 'no',
      DOWNLOAD_LINK_SECRET: 'short-secret',
      DOWNLOAD_LINK_TTL_SECONDS: '10',
      EXPORT_PUBLIC_URL: 'https://exports.example.com/?x=1',
    });
    expect(found.map((p) => p.split(' ')[0]).sort()).toEqual([
      'DOWNLOAD_LINK_SECRET',
      'DOWNLOAD_LINK_TTL_SECONDS',
      'EXPORT_PUBLIC_URL',
      'S3_ACCESS_KEY_ID',
      'S3_BUCKET',
      'S3_ENDPOINT',
      'S3_FORCE_PATH_STYLE',
      'S3_PREFIX',
      'S3_REGION',
      'S3_SECRET_ACCESS_KEY',
    ]);
    expect(found.join('\n')).not.toMatch(/short-secret|"no"/);
    expect(found).toContain(
      'DOWNLOAD_LINK_SECRET must be 32 to 256 printable characters without spaces (e.g. openssl rand -hex 32), and is required when S3_BUCKET is set (got "***")',
    );
    expect(found).toContain('DOWNLOAD_LINK_TTL_SECONDS must be a whole number from 60 to 604800 (got "10")');
  });

  it('masks the S3 and link secrets in the logged environment', () => {
    expect(
      describeEnvironment({ S3_SECRET_ACCESS_KEY: 'abc/def', DOWNLOAD_LINK_SECRET: secret, S3_BUCKET: 'files' }),
    ).toEqual({
      S3_SECRET_ACCESS_KEY: '***',
      DOWNLOAD_LINK_SECRET: '***',
      S3_BUCKET: 'files',
    });
  });
});

describe('QUERY_REGION_HOSTS', () => {
  it('is empty by default (no host is bound to a region) and reads host=REGION pairs in order', () => {
    expect(loadConfig({}).queryRegionHosts).toEqual([]);
    expect(
      loadConfig({ QUERY_REGION_HOSTS: 'API.example.com=us, eu.example.com=EU,in.example.com=IN' }).queryRegionHosts,
    ).toEqual([
      { host: 'api.example.com', region: 'US' },
      { host: 'eu.example.com', region: 'EU' },
      { host: 'in.example.com', region: 'IN' },
    ]);
  });

  it.each(['eu.example.com', 'eu.example.com:443=EU', 'https://eu.example.com=EU', 'eu.example.com=E1'])(
    'refuses %s',
    (value) => {
      expect(problems({ QUERY_REGION_HOSTS: value })).toEqual([
        expect.stringMatching(/^QUERY_REGION_HOSTS must be a comma-separated list of host=REGION/),
      ]);
    },
  );

  it('refuses a host given two regions', () => {
    expect(problems({ QUERY_REGION_HOSTS: 'eu.example.com=EU,EU.example.com=IN' })).toEqual([
      expect.stringMatching(/^QUERY_REGION_HOSTS names eu.example.com twice/),
    ]);
  });
});

describe('Kafka authentication', () => {
  const brokers = { KAFKA_BROKERS: 'kafka:9092' };
  const sasl = { KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'analytics', KAFKA_SASL_PASSWORD: 'pw' };

  it('asks no authentication and no TLS by default', () => {
    expect(loadConfig(brokers).kafka).toMatchObject({ sasl: undefined, ssl: undefined });
  });

  it('reads the mechanism, the credentials and TLS, and masks the password in the logged environment', () => {
    expect(loadConfig({ ...brokers, ...sasl, KAFKA_SSL: 'true' }).kafka).toMatchObject({
      sasl: { mechanism: 'scram-sha-512', username: 'analytics', password: 'pw' },
      ssl: { ca: undefined },
    });
    expect(describeEnvironment(sasl).KAFKA_SASL_PASSWORD).toBe('***');
  });

  it('refuses a mechanism without credentials, in one message naming what is missing', () => {
    expect(problems({ ...brokers, KAFKA_SASL_MECHANISM: 'scram-sha-256' })).toEqual([
      'KAFKA_SASL_MECHANISM, KAFKA_SASL_USERNAME, KAFKA_SASL_PASSWORD go together: set all three or none (missing KAFKA_SASL_USERNAME, KAFKA_SASL_PASSWORD)',
    ]);
    expect(problems({ ...brokers, KAFKA_SASL_USERNAME: 'a', KAFKA_SASL_PASSWORD: 'b' })).toEqual([
      expect.stringMatching(/missing KAFKA_SASL_MECHANISM\)$/),
    ]);
  });

  it('refuses an unknown mechanism and an unreadable CA file', () => {
    expect(problems({ ...sasl, KAFKA_SASL_MECHANISM: 'gssapi' })).toEqual([
      'KAFKA_SASL_MECHANISM must be one of plain, scram-sha-256, scram-sha-512 (got "gssapi")',
    ]);
    expect(problems({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: '/nonexistent/ca.pem' })).toEqual([
      expect.stringMatching(/^KAFKA_SSL_CA_FILE cannot be read: ENOENT/),
    ]);
  });
});
