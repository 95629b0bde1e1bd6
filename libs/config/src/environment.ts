import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { LOG_LEVELS, SERVICE_NAMES } from './constants';
import { Secret } from './secret.decorator';

/** Empty strings count as unset, so `FOO=` in a shell behaves like no FOO at all. */
const blankToUndefined = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const toInteger = ({ value }: { value: unknown }): unknown => {
  const v = blankToUndefined({ value });
  if (typeof v !== 'string') return v;
  return /^-?\d+$/.test(v.trim()) ? Number(v) : v;
};

const toBoolean = ({ value }: { value: unknown }): unknown => {
  const v = blankToUndefined({ value });
  if (typeof v !== 'string') return v;
  const normalized = v.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(normalized)) return true;
  if (['0', 'false', 'no', 'off'].includes(normalized)) return false;
  return v;
};

const toList = ({ value }: { value: unknown }): unknown => {
  const v = blankToUndefined({ value });
  if (typeof v !== 'string') return v;
  return v.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
};

const integer = (min: number, max: number) => [
  Transform(toInteger),
  IsOptional(),
  IsInt({ message: `must be a whole number from ${min} to ${max}` }),
  Min(min, { message: `must be a whole number from ${min} to ${max}` }),
  Max(max, { message: `must be a whole number from ${min} to ${max}` }),
];

function apply(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => decorators.forEach((d) => d(target, key));
}
const Integer = (min: number, max: number): PropertyDecorator => apply(...integer(min, max));
const OptionalText = (): PropertyDecorator => apply(Transform(blankToUndefined), IsOptional(), IsString());
const Flag = (): PropertyDecorator =>
  apply(Transform(toBoolean), IsOptional(), IsBoolean({ message: 'must be true or false (also 1/0, yes/no)' }));

const SERVICE_URL = /^(https?:\/\/[^\s]+|chdb:.+)$/;
const DATABASE_URL = /^(postgres(ql)?:\/\/[^\s]+|pglite:.+)$/;
const BROKER = /^[A-Za-z0-9.\-_[\]:]+:\d{1,5}$/;
const CREDENTIAL = /^[A-Za-z0-9_-]+$/;

/**
 * Every environment variable the platform reads, named as in the environment.
 * Validated once at start; {@link AppConfig} is the typed view the code uses.
 */
export class Environment {
  @Integer(0, 65535) PORT?: number;
  @OptionalText() HOST?: string;
  @OptionalText() DATA_DIR?: string;
  @OptionalText() TRUST_PROXY?: string;

  @Transform(blankToUndefined) @IsOptional()
  @Matches(SERVICE_URL, { message: 'must be http(s)://user:password@host:port/database or chdb:<directory>' })
  @Secret()
  CLICKHOUSE_URL?: string;

  @Transform(blankToUndefined) @IsOptional()
  @Matches(/^[A-Za-z0-9_]+$/, { message: 'must be a ClickHouse cluster name (letters, digits, _)' })
  CLICKHOUSE_CLUSTER?: string;

  @Transform(blankToUndefined) @IsOptional()
  @Matches(DATABASE_URL, { message: 'must be postgres://user:password@host:port/database or pglite:<directory>' })
  @Secret()
  DATABASE_URL?: string;

  @Transform(toList) @IsOptional()
  @Matches(BROKER, { each: true, message: 'must be a comma-separated list of host:port' })
  KAFKA_BROKERS?: string[];

  @OptionalText() KAFKA_CLIENT_ID?: string;
  @Transform(blankToUndefined) @IsOptional()
  @Matches(/^[A-Za-z0-9._-]*$/, { message: 'may hold only letters, digits, ".", "_" and "-"' })
  KAFKA_TOPIC_PREFIX?: string;
  @Integer(1, 10000) KAFKA_EVENTS_PARTITIONS?: number;
  @Integer(1, 10000) KAFKA_PROFILES_PARTITIONS?: number;
  @Integer(1, 10) KAFKA_REPLICATION_FACTOR?: number;

  @Transform(toList) @IsOptional()
  @IsIn(SERVICE_NAMES, { each: true, message: `must list services among ${SERVICE_NAMES.join(', ')}` })
  SERVICES?: string[];

  @Transform(blankToUndefined) @IsOptional()
  @IsIn(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL?: string;

  @Transform(blankToUndefined) @IsOptional()
  @Matches(/^rediss?:\/\/[^\s]+$/, { message: 'must be redis://[user:password@]host:port[/db]' })
  @Secret()
  REDIS_URL?: string;

  @Integer(1024, 104_857_600) INGEST_MAX_BODY_BYTES?: number;
  @Integer(1, 1_000_000_000) INGEST_LIMIT_EVENTS_PER_MINUTE?: number;
  @Integer(50, 60_000) WRITER_FLUSH_INTERVAL_MS?: number;
  @Integer(1, 10_000_000) WRITER_MAX_BATCH_ROWS?: number;

  @Integer(1, 1_000_000_000) EXPORT_LIMIT_PER_HOUR?: number;
  @Integer(1, 1_000_000_000) EXPORT_LIMIT_PER_SECOND?: number;
  @Integer(1, 1_000_000) EXPORT_LIMIT_CONCURRENT?: number;

  @Integer(1, 1_000_000_000) QUERY_LIMIT_PER_HOUR?: number;
  @Integer(1, 1_000_000_000) QUERY_LIMIT_PER_SECOND?: number;
  @Integer(1, 1_000_000) QUERY_LIMIT_CONCURRENT?: number;
  @Integer(1, 3600) QUERY_MAX_EXECUTION_SECONDS?: number;

  @Integer(1, 1_000_000) SCHEMA_WRITES_PER_MINUTE?: number;
  @Integer(100, 60_000) DICTIONARY_CACHE_TTL_MS?: number;
  @Integer(1, 365) DICTIONARY_SEEN_DAYS?: number;

  @Flag() MIGRATE_ON_START?: boolean;
  @Integer(100, 120000) SHUTDOWN_TIMEOUT_MS?: number;

  @Transform(blankToUndefined) @IsOptional()
  @MinLength(8, { message: 'must be 8 to 64 characters of letters, digits, "_" or "-"' })
  @MaxLength(64, { message: 'must be 8 to 64 characters of letters, digits, "_" or "-"' })
  @Matches(CREDENTIAL, { message: 'must be 8 to 64 characters of letters, digits, "_" or "-"' })
  BOOTSTRAP_PROJECT_TOKEN?: string;

  @Transform(blankToUndefined) @IsOptional()
  @Matches(/^[A-Za-z0-9._-]{3,128}$/, { message: 'must be 3 to 128 characters of letters, digits, ".", "_" or "-"' })
  BOOTSTRAP_SERVICE_ACCOUNT_USERNAME?: string;

  @Transform(blankToUndefined) @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{16,128}$/, { message: 'must be 16 to 128 characters of letters, digits, "_" or "-"' })
  @Secret()
  BOOTSTRAP_SERVICE_ACCOUNT_SECRET?: string;

  @Transform(blankToUndefined) @IsOptional()
  @MinLength(16, { message: 'must be 16 to 64 characters of letters, digits, "_" or "-"' })
  @MaxLength(64, { message: 'must be 16 to 64 characters of letters, digits, "_" or "-"' })
  @Matches(CREDENTIAL, { message: 'must be 16 to 64 characters of letters, digits, "_" or "-"' })
  @Secret()
  BOOTSTRAP_PROJECT_SECRET?: string;
}
