import { resolve } from 'node:path';
import { LogLevel, SERVICE_NAMES, ServiceName } from './constants';
import { Environment } from './environment';
import { KafkaSettings, kafkaSettings } from './kafka-settings';
import { ReadingLimits } from './limits-environment';

/** Where stored files live: a folder under DATA_DIR by default, an S3-compatible bucket when S3_BUCKET is set. */
export type ObjectStoreSettings =
  | { kind: 'local'; directory: string }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      /** Absent: AWS itself. */
      endpoint?: string;
      forcePathStyle: boolean;
      /** Prepended to every key ("" or ending in "/"), so several installations can share a bucket. */
      prefix: string;
      /** Absent: the AWS SDK's default chain (environment, web identity, instance role). */
      credentials?: { accessKeyId: string; secretAccessKey: string };
    };

/** A public host of the query API and the project region it alone serves (host lower-case, region upper-case). */
export interface RegionHost {
  host: string;
  region: string;
}

export interface DownloadLinkSettings {
  /** Unset only without S3: the object-store lib then keeps a generated key under DATA_DIR. */
  secret: string | undefined;
  ttlSeconds: number;
}

/** The validated, typed configuration every module receives. Built once, by {@link loadConfig}. */
export class AppConfig {
  readonly port: number;
  readonly host: string;
  /** Express `trust proxy`: which hops may set X-Forwarded-For (the request IP for `ip=1`). */
  readonly trustProxy: string;
  readonly dataDir: string;
  readonly clickhouseUrl: string;
  readonly clickhouseCluster: string | undefined;
  readonly databaseUrl: string;
  /** Absent means no broker: the gateways hand batches to the writer code in-process. */
  readonly kafka: KafkaSettings | undefined;
  readonly services: readonly ServiceName[];
  readonly logLevel: LogLevel;
  readonly redisUrl: string | undefined;
  readonly migrateOnStart: boolean;
  /** Per-project usage gauges on /metrics (docs/usage.md); off by default, since /metrics has no credentials. */
  readonly usageMetrics: boolean;
  readonly shutdownTimeoutMs: number;
  /** Set: /healthz, /readyz and /metrics are served on this port only (MANAGEMENT_PORT); unset: on `port`. */
  readonly managementPort: number | undefined;
  /** How long `migrate --wait` waits for both ledgers to be current. */
  readonly migrateWaitTimeoutMs: number;
  /** The HTTP server's limits: a client slower than these (slow-loris) loses its connection. */
  readonly http: {
    headersTimeoutMs: number;
    requestTimeoutMs: number;
    keepAliveTimeoutMs: number;
    maxHeaderBytes: number;
    /** A response whose client takes none of it for this long is closed (and its query cancelled). */
    writeStallTimeoutMs: number;
  };
  readonly bootstrap: {
    projectToken?: string;
    projectSecret?: string;
    serviceAccountUsername?: string;
    serviceAccountSecret?: string;
  };
  /**
   * With a broker: `kafkaMaxPendingBytes` is what one gateway holds for Kafka (events, and profile
   * updates, each) before it answers 503; `kafkaSendTimeoutMs` how long a request waits for the acknowledgement.
   */
  readonly ingest: {
    maxBodyBytes: number;
    eventsPerMinute: number;
    kafkaMaxPendingBytes: number;
    kafkaSendTimeoutMs: number;
  };
  readonly writer: { flushIntervalMs: number; maxBatchRows: number; maxBatchBytes: number };
  /** What one profile may hold (docs/profiles.md, "Limits"): an update that would grow it beyond is refused. */
  readonly profiles: { maxProperties: number; maxPropertyBytes: number; maxProfileBytes: number };
  /** The raw export's limits per project (the real API's numbers by default). */
  readonly exportLimits: ReadingLimits;
  /** The query API's limits per project (the spec's 60/hour, 3/second, 5 at once) and its query time limit. */
  readonly query: { limits: ReadingLimits; maxExecutionSeconds: number; maxMemoryBytes: number };
  /**
   * The web console's own budget per project (docs/console.md), spent instead of the limits above by requests
   * that say they come from the console: a page asks four questions at once, the live view an export each 10 s.
   */
  readonly consoleLimits: { query: ReadingLimits; export: ReadingLimits };
  /** Data residency: the public query hosts bound to one project region each (QUERY_REGION_HOSTS), in the setting's order. */
  readonly queryRegionHosts: readonly RegionHost[];
  /** Failed authentications (wrong secret, unknown account) allowed per client address and per username in each window. */
  readonly authFailures: { perIp: number; perUsername: number; windowSeconds: number };
  /** Schema writes per organization per minute (the real API's 5), dropped-rule cache, `schemas/seen` window. */
  readonly dictionary: { schemaWritesPerMinute: number; cacheTtlMs: number; seenDays: number };
  readonly objectStore: ObjectStoreSettings;
  readonly downloadLinks: DownloadLinkSettings;
  /** How long a compliance retrieval's download link works. */
  readonly complianceLinkTtlSeconds: number;
  /** Renewable lease of a running compliance job (a killed worker's job is retried after it). */
  readonly complianceHeartbeatSeconds: number;
  /** How often abandoned job leases are looked for. */
  readonly jobsExpiryCheckSeconds: number;
  /** Key material for warehouse-source credentials (WAREHOUSE_CREDENTIALS_KEY), when set. */
  readonly warehouseCredentialsKey: string | undefined;
  /** Networks outbound requests may reach besides public addresses (OUTBOUND_ALLOWED_NETWORKS); none by default. */
  readonly outboundAllowedNetworks: string[];
  /** Base URL of the export host (`{export_url}`), under which download links are made; no trailing "/". */
  readonly exportPublicUrl: string;

  constructor(env: Environment) {
    this.port = env.PORT ?? 8080;
    this.host = env.HOST ?? '0.0.0.0';
    this.trustProxy = env.TRUST_PROXY ?? 'loopback, linklocal, uniquelocal';
    this.dataDir = resolve(env.DATA_DIR ?? './data');
    this.clickhouseUrl = env.CLICKHOUSE_URL ?? `chdb:${resolve(this.dataDir, 'clickhouse')}`;
    this.clickhouseCluster = env.CLICKHOUSE_CLUSTER;
    this.databaseUrl = env.DATABASE_URL ?? `pglite:${resolve(this.dataDir, 'postgres')}`;
    this.kafka = kafkaSettings(env);
    this.services = env.SERVICES?.length ? (env.SERVICES as ServiceName[]) : SERVICE_NAMES;
    this.logLevel = (env.LOG_LEVEL as LogLevel | undefined) ?? 'info';
    this.redisUrl = env.REDIS_URL;
    this.migrateOnStart = env.MIGRATE_ON_START ?? true;
    this.usageMetrics = env.USAGE_METRICS ?? false;
    this.shutdownTimeoutMs = env.SHUTDOWN_TIMEOUT_MS ?? 10_000;
    this.managementPort = env.MANAGEMENT_PORT;
    this.migrateWaitTimeoutMs = env.MIGRATE_WAIT_TIMEOUT_MS ?? 600_000;
    this.http = {
      headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS ?? 20_000,
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS ?? 60_000,
      // Above the 60 s idle timeout of common load balancers, so they never reuse a connection we closed.
      keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS ?? 65_000,
      maxHeaderBytes: env.HTTP_MAX_HEADER_BYTES ?? 16_384,
      writeStallTimeoutMs: env.HTTP_WRITE_STALL_TIMEOUT_MS ?? 30_000,
    };
    this.bootstrap = {
      projectToken: env.BOOTSTRAP_PROJECT_TOKEN,
      projectSecret: env.BOOTSTRAP_PROJECT_SECRET,
      serviceAccountUsername: env.BOOTSTRAP_SERVICE_ACCOUNT_USERNAME,
      serviceAccountSecret: env.BOOTSTRAP_SERVICE_ACCOUNT_SECRET,
    };
    this.ingest = {
      maxBodyBytes: env.INGEST_MAX_BODY_BYTES ?? 2_097_152,
      // Generous: about 200k events/s per project, above what one gateway replica takes.
      eventsPerMinute: env.INGEST_LIMIT_EVENTS_PER_MINUTE ?? 12_000_000,
      // Well under the ingest pods' 512 MiB: a broker that slows down turns into 503s, not a heap that grows.
      kafkaMaxPendingBytes: env.INGEST_KAFKA_MAX_PENDING_BYTES ?? 67_108_864,
      // Above the ~11 s a hard-killed broker stays in the in-sync replicas (docs/ingestion.md, "Deadline").
      kafkaSendTimeoutMs: env.INGEST_KAFKA_SEND_TIMEOUT_MS ?? 15_000,
    };
    // Mixpanel's documented limits: 2,000 properties per profile, 256 KB per list or object property.
    this.profiles = {
      maxProperties: env.PROFILE_MAX_PROPERTIES ?? 2000,
      maxPropertyBytes: env.PROFILE_MAX_PROPERTY_BYTES ?? 262_144,
      // Mixpanel's 1 MB per update; a profile no update can grow past it stays a cheap row to rewrite.
      maxProfileBytes: env.PROFILE_MAX_BYTES ?? 1_048_576,
    };
    this.exportLimits = {
      perHour: env.EXPORT_LIMIT_PER_HOUR ?? 60,
      perSecond: env.EXPORT_LIMIT_PER_SECOND ?? 3,
      concurrent: env.EXPORT_LIMIT_CONCURRENT ?? 100,
    };
    this.query = {
      limits: {
        perHour: env.QUERY_LIMIT_PER_HOUR ?? 60,
        perSecond: env.QUERY_LIMIT_PER_SECOND ?? 3,
        concurrent: env.QUERY_LIMIT_CONCURRENT ?? 5,
      },
      maxExecutionSeconds: env.QUERY_MAX_EXECUTION_SECONDS ?? 60,
      maxMemoryBytes: (env.QUERY_MAX_MEMORY_MB ?? 4096) * 1024 ** 2,
    };
    this.consoleLimits = {
      query: {
        perHour: env.CONSOLE_QUERY_LIMIT_PER_HOUR ?? 3600,
        perSecond: env.CONSOLE_QUERY_LIMIT_PER_SECOND ?? 20,
        concurrent: env.CONSOLE_QUERY_LIMIT_CONCURRENT ?? 10,
      },
      export: {
        perHour: env.CONSOLE_EXPORT_LIMIT_PER_HOUR ?? 1800,
        perSecond: env.CONSOLE_EXPORT_LIMIT_PER_SECOND ?? 10,
        concurrent: env.CONSOLE_EXPORT_LIMIT_CONCURRENT ?? 5,
      },
    };
    this.queryRegionHosts = (env.QUERY_REGION_HOSTS ?? []).map((entry) => {
      const [host, region] = entry.split('=');
      return { host: host.toLowerCase(), region: region.toUpperCase() };
    });
    // One address alone reaches its limit before it can lock an account for everyone else.
    this.authFailures = {
      perIp: env.AUTH_FAILURES_PER_IP ?? 10,
      perUsername: env.AUTH_FAILURES_PER_USERNAME ?? 20,
      windowSeconds: env.AUTH_FAILURE_WINDOW_SECONDS ?? 60,
    };
    this.dictionary = {
      schemaWritesPerMinute: env.SCHEMA_WRITES_PER_MINUTE ?? 5,
      cacheTtlMs: env.DICTIONARY_CACHE_TTL_MS ?? 2_000,
      seenDays: env.DICTIONARY_SEEN_DAYS ?? 30,
    };
    this.objectStore = env.S3_BUCKET
      ? {
          kind: 's3',
          bucket: env.S3_BUCKET,
          region: env.S3_REGION ?? 'us-east-1',
          endpoint: env.S3_ENDPOINT,
          forcePathStyle: env.S3_FORCE_PATH_STYLE ?? false,
          prefix: env.S3_PREFIX ? env.S3_PREFIX.replace(/\/?$/, '/') : '',
          credentials:
            env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
              ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
              : undefined,
        }
      : { kind: 'local', directory: resolve(this.dataDir, 'objects') };
    this.downloadLinks = { secret: env.DOWNLOAD_LINK_SECRET, ttlSeconds: env.DOWNLOAD_LINK_TTL_SECONDS ?? 86_400 };
    this.complianceLinkTtlSeconds = env.COMPLIANCE_LINK_TTL_SECONDS ?? 604_800;
    this.complianceHeartbeatSeconds = env.COMPLIANCE_HEARTBEAT_SECONDS ?? 30;
    this.jobsExpiryCheckSeconds = env.JOBS_EXPIRY_CHECK_SECONDS ?? 30;
    this.warehouseCredentialsKey = env.WAREHOUSE_CREDENTIALS_KEY;
    this.outboundAllowedNetworks = env.OUTBOUND_ALLOWED_NETWORKS ?? [];
    this.exportPublicUrl = (env.EXPORT_PUBLIC_URL ?? `http://localhost:${this.port}`).replace(/\/+$/, '');
    this.writer = {
      // 250 ms keeps acknowledged → stored under 1 s at p99 (docs/benchmarks/2026-11-24-issue-21-writer.md).
      flushIntervalMs: env.WRITER_FLUSH_INTERVAL_MS ?? 250,
      maxBatchRows: env.WRITER_MAX_BATCH_ROWS ?? 200_000,
      // 8 MiB: chDB takes 10-20x an insert's bytes while inserting, so in-process this bound is most of the
      // writer's peak (-15 to -80 MB against 16 MiB at the same CPU,
      // docs/benchmarks/2026-11-25-writer-insert-settings.md); beside a server the cluster config sets
      // 16 MiB (fewer, larger inserts).
      maxBatchBytes: env.WRITER_MAX_BATCH_BYTES ?? 8_388_608,
    };
  }

  runs(service: ServiceName): boolean {
    return this.services.includes(service);
  }
}
