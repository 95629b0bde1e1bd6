import { Transform } from 'class-transformer';
import { IsDefined, IsIn, IsOptional, Matches, MaxLength, MinLength, ValidateBy, ValidateIf } from 'class-validator';
import { KAFKA_COMPRESSIONS, KAFKA_SASL_MECHANISMS, LOG_LEVELS, SERVICE_NAMES } from './constants';
import { parseNetwork } from './network';
import { Secret } from './secret.decorator';
import { apply, blankToUndefined, Flag, Integer, Matching, OptionalText, toList } from './environment-decorators';
import { LimitsEnvironment } from './limits-environment';
import { BROKER, CREDENTIAL, DATABASE_URL, HTTP_URL, KEY_PREFIX, SERVICE_URL } from './environment-formats';

/** The S3 settings besides S3_BUCKET: any of them without a bucket is a mistake worth stopping for. */
const S3_COMPANIONS = [
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_PREFIX',
  'S3_FORCE_PATH_STYLE',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
] as const;
const anySet = (env: Environment, names: readonly (keyof Environment)[]) =>
  names.some((name) => env[name] !== undefined);

/** Validated when set or when any of `names` is set; one message for "missing" and "malformed" alike. */
const RequiredWith = (names: readonly (keyof Environment)[], pattern: RegExp, message: string): PropertyDecorator =>
  apply(
    Transform(blankToUndefined),
    ValidateIf((env: Environment, value: unknown) => value !== undefined || anySet(env, names)),
    IsDefined({ message }),
    Matches(pattern, { message }),
  );

/**
 * Every environment variable the platform reads, named as in the environment.
 * Validated once at start; {@link AppConfig} is the typed view the code uses.
 */
export class Environment extends LimitsEnvironment {
  @Integer(0, 65535) PORT?: number;
  @OptionalText() HOST?: string;
  @OptionalText() DATA_DIR?: string;
  @OptionalText() TRUST_PROXY?: string;

  @Matching(SERVICE_URL, 'must be http(s)://user:password@host:port/database or chdb:<directory>')
  @Secret()
  CLICKHOUSE_URL?: string;

  @Matching(/^[A-Za-z0-9_]+$/, 'must be a ClickHouse cluster name (letters, digits, _)')
  CLICKHOUSE_CLUSTER?: string;

  @Matching(DATABASE_URL, 'must be postgres://user:password@host:port/database or pglite:<directory>')
  @Secret()
  DATABASE_URL?: string;

  @Transform(toList)
  @IsOptional()
  @Matches(BROKER, { each: true, message: 'must be a comma-separated list of host:port' })
  KAFKA_BROKERS?: string[];

  @OptionalText() KAFKA_CLIENT_ID?: string;
  @Matching(/^[A-Za-z0-9._-]*$/, 'may hold only letters, digits, ".", "_" and "-"')
  KAFKA_TOPIC_PREFIX?: string;
  @Integer(1, 10000) KAFKA_EVENTS_PARTITIONS?: number;
  @Integer(1, 10000) KAFKA_PROFILES_PARTITIONS?: number;
  @Integer(1, 10) KAFKA_REPLICATION_FACTOR?: number;
  @Transform(blankToUndefined)
  @IsOptional()
  @IsIn(KAFKA_COMPRESSIONS, { message: `must be one of ${KAFKA_COMPRESSIONS.join(', ')}` })
  KAFKA_COMPRESSION?: string;
  /** Broker authentication: all three SASL settings or none (loadConfig names what is missing). */
  @Transform(blankToUndefined)
  @IsOptional()
  @IsIn(KAFKA_SASL_MECHANISMS, { message: `must be one of ${KAFKA_SASL_MECHANISMS.join(', ')}` })
  KAFKA_SASL_MECHANISM?: string;
  @OptionalText() KAFKA_SASL_USERNAME?: string;
  @OptionalText() @Secret() KAFKA_SASL_PASSWORD?: string;
  @Flag() KAFKA_SSL?: boolean;
  /** A PEM file of the CAs that sign the brokers' certificates (the system's CAs when unset). */
  @OptionalText() KAFKA_SSL_CA_FILE?: string;

  @Transform(toList)
  @IsOptional()
  @IsIn(SERVICE_NAMES, { each: true, message: `must list services among ${SERVICE_NAMES.join(', ')}` })
  SERVICES?: string[];

  @Transform(blankToUndefined)
  @IsOptional()
  @IsIn(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL?: string;

  @Matching(/^rediss?:\/\/[^\s]+$/, 'must be redis://[user:password@]host:port[/db]')
  @Secret()
  REDIS_URL?: string;

  /** Data residency: which public host serves which project region, `host=REGION,…` (e.g. `eu.example.com=EU`). */
  @Transform(toList)
  @IsOptional()
  @Matches(/^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*=[A-Za-z]{2,16}$/, {
    each: true,
    message: 'must be a comma-separated list of host=REGION (a host name without port, e.g. eu.example.com=EU)',
  })
  QUERY_REGION_HOSTS?: string[];

  @Integer(1, 1_000_000) AUTH_FAILURES_PER_IP?: number;
  @Integer(1, 1_000_000) AUTH_FAILURES_PER_USERNAME?: number;
  @Integer(1, 86_400) AUTH_FAILURE_WINDOW_SECONDS?: number;

  @Integer(1, 1_000_000) SCHEMA_WRITES_PER_MINUTE?: number;
  @Integer(100, 60_000) DICTIONARY_CACHE_TTL_MS?: number;
  @Integer(1, 365) DICTIONARY_SEEN_DAYS?: number;

  @Flag() MIGRATE_ON_START?: boolean;
  /** Per-project usage gauges on /metrics (project ids and counts: off unless /metrics is private). */
  @Flag() USAGE_METRICS?: boolean;
  /** Up to an hour: an export service lets running exports finish within it (docs/export.md). */
  @Integer(100, 3_600_000) SHUTDOWN_TIMEOUT_MS?: number;
  /** Set: /healthz, /readyz and /metrics move to this port, off the API port the ingress routes. */
  @Integer(0, 65535) MANAGEMENT_PORT?: number;
  /** `migrate --wait`: how long to wait for both ledgers to reach this build's latest migration. */
  @Integer(1000, 86_400_000) MIGRATE_WAIT_TIMEOUT_MS?: number;

  @Integer(1000, 300000) HTTP_HEADERS_TIMEOUT_MS?: number;
  @Integer(1000, 3600000) HTTP_REQUEST_TIMEOUT_MS?: number;
  @Integer(1000, 600000) HTTP_KEEP_ALIVE_TIMEOUT_MS?: number;
  @Integer(1024, 1048576) HTTP_MAX_HEADER_BYTES?: number;
  @Integer(1000, 3600000) HTTP_WRITE_STALL_TIMEOUT_MS?: number;

  @Transform(blankToUndefined)
  @IsOptional()
  @MinLength(8, { message: 'must be 8 to 64 characters of letters, digits, "_" or "-"' })
  @MaxLength(64, { message: 'must be 8 to 64 characters of letters, digits, "_" or "-"' })
  @Matches(CREDENTIAL, { message: 'must be 8 to 64 characters of letters, digits, "_" or "-"' })
  BOOTSTRAP_PROJECT_TOKEN?: string;

  @Matching(/^[A-Za-z0-9._-]{3,128}$/, 'must be 3 to 128 characters of letters, digits, ".", "_" or "-"')
  BOOTSTRAP_SERVICE_ACCOUNT_USERNAME?: string;

  @Matching(/^[A-Za-z0-9_-]{16,128}$/, 'must be 16 to 128 characters of letters, digits, "_" or "-"')
  @Secret()
  BOOTSTRAP_SERVICE_ACCOUNT_SECRET?: string;

  @Transform(blankToUndefined)
  @IsOptional()
  @MinLength(16, { message: 'must be 16 to 64 characters of letters, digits, "_" or "-"' })
  @MaxLength(64, { message: 'must be 16 to 64 characters of letters, digits, "_" or "-"' })
  @Matches(CREDENTIAL, { message: 'must be 16 to 64 characters of letters, digits, "_" or "-"' })
  @Secret()
  BOOTSTRAP_PROJECT_SECRET?: string;

  /** Set: objects live in this S3-compatible bucket; unset: in a folder under DATA_DIR. */
  @RequiredWith(
    S3_COMPANIONS,
    /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
    'must be a bucket name (3 to 63 lowercase letters, digits, "." or "-"), and is required when any other S3_ variable is set',
  )
  S3_BUCKET?: string;

  @Matching(HTTP_URL, 'must be http(s)://host[:port] of an S3-compatible store')
  S3_ENDPOINT?: string;

  @Matching(/^[A-Za-z0-9-]{1,64}$/, 'must be a region name (letters, digits, "-")')
  S3_REGION?: string;

  @Transform(blankToUndefined)
  @IsOptional()
  @Matches(KEY_PREFIX, {
    message: 'must be "/"-separated segments of letters, digits, ".", "_" or "-", none starting with "."',
  })
  S3_PREFIX?: string;

  @Flag() S3_FORCE_PATH_STYLE?: boolean;

  @RequiredWith(
    ['S3_SECRET_ACCESS_KEY'],
    /^[\x21-\x7e]{3,128}$/,
    'must be 3 to 128 printable characters without spaces, and is required with S3_SECRET_ACCESS_KEY',
  )
  S3_ACCESS_KEY_ID?: string;

  @RequiredWith(
    ['S3_ACCESS_KEY_ID'],
    /^[\x21-\x7e]{3,256}$/,
    'must be 3 to 256 printable characters without spaces, and is required with S3_ACCESS_KEY_ID',
  )
  @Secret()
  S3_SECRET_ACCESS_KEY?: string;

  /** Required with S3: replicas that share a bucket must sign and check links with one key. */
  @RequiredWith(
    ['S3_BUCKET'],
    /^[\x21-\x7e]{32,256}$/,
    'must be 32 to 256 printable characters without spaces (e.g. openssl rand -hex 32), and is required when S3_BUCKET is set',
  )
  @Secret()
  DOWNLOAD_LINK_SECRET?: string;

  @Integer(60, 604_800) DOWNLOAD_LINK_TTL_SECONDS?: number;

  /** Encrypts warehouse-source credentials; without it, the download link key serves (every replica must share it). */
  @Matching(
    /^[\x21-\x7e]{32,256}$/,
    'must be 32 to 256 printable characters without spaces (e.g. openssl rand -hex 32)',
  )
  @Secret()
  WAREHOUSE_CREDENTIALS_KEY?: string;
  /**
   * Networks outbound requests (pipeline destinations, warehouse sources) may reach besides public
   * addresses, as CIDRs: e.g. an in-cluster MinIO or a warehouse on the private network.
   */
  @Transform(toList)
  @IsOptional()
  @ValidateBy({
    name: 'networks',
    validator: {
      validate: (value: unknown) =>
        Array.isArray(value) && value.every((entry) => typeof entry === 'string' && parseNetwork(entry) !== undefined),
      defaultMessage: () =>
        'must be a comma-separated list of networks as address/prefix (e.g. 10.0.0.0/8, fd00::/8) or single addresses',
    },
  })
  OUTBOUND_ALLOWED_NETWORKS?: string[];

  /** Compliance retrieval links: 7 days by default, up to a year. */
  @Integer(60, 31_536_000) COMPLIANCE_LINK_TTL_SECONDS?: number;
  /** A running compliance job's renewable lease: a killed worker's job is retried this long after its last renewal. */
  @Integer(10, 3600) COMPLIANCE_HEARTBEAT_SECONDS?: number;
  /** How often expired and abandoned job leases are looked for, across replicas. */
  @Integer(1, 300) JOBS_EXPIRY_CHECK_SECONDS?: number;

  @Matching(HTTP_URL, 'must be an http(s):// URL without query or fragment')
  EXPORT_PUBLIC_URL?: string;
}
