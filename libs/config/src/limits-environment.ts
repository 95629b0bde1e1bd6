import { Integer } from './environment-decorators';

/** A reading API's limits per project: calls per hour, per second, and at once. */
export interface ReadingLimits {
  perHour: number;
  perSecond: number;
  concurrent: number;
}

/** The sizes and rates the platform holds each project and request to: part of {@link Environment}. */
export class LimitsEnvironment {
  @Integer(1024, 104_857_600) INGEST_MAX_BODY_BYTES?: number;
  @Integer(1, 1_000_000_000) INGEST_LIMIT_EVENTS_PER_MINUTE?: number;
  @Integer(1_048_576, 8_589_934_592) INGEST_KAFKA_MAX_PENDING_BYTES?: number;
  @Integer(1000, 120_000) INGEST_KAFKA_SEND_TIMEOUT_MS?: number;
  @Integer(50, 60_000) WRITER_FLUSH_INTERVAL_MS?: number;
  @Integer(1, 10_000_000) WRITER_MAX_BATCH_ROWS?: number;
  @Integer(65_536, 1_073_741_824) WRITER_MAX_BATCH_BYTES?: number;
  @Integer(10, 100_000) PROFILE_MAX_PROPERTIES?: number;
  @Integer(1024, 16_777_216) PROFILE_MAX_PROPERTY_BYTES?: number;
  @Integer(1024, 67_108_864) PROFILE_MAX_BYTES?: number;

  @Integer(1, 1_000_000_000) EXPORT_LIMIT_PER_HOUR?: number;
  @Integer(1, 1_000_000_000) EXPORT_LIMIT_PER_SECOND?: number;
  @Integer(1, 1_000_000) EXPORT_LIMIT_CONCURRENT?: number;

  @Integer(1, 1_000_000_000) QUERY_LIMIT_PER_HOUR?: number;
  @Integer(1, 1_000_000_000) QUERY_LIMIT_PER_SECOND?: number;
  @Integer(1, 1_000_000) QUERY_LIMIT_CONCURRENT?: number;
  @Integer(1, 3600) QUERY_MAX_EXECUTION_SECONDS?: number;
  @Integer(16, 1_048_576) QUERY_MAX_MEMORY_MB?: number;

  /** The web console's own budget (docs/console.md), spent instead of the public QUERY_ and EXPORT_ limits. */
  @Integer(1, 1_000_000_000) CONSOLE_QUERY_LIMIT_PER_HOUR?: number;
  @Integer(1, 1_000_000_000) CONSOLE_QUERY_LIMIT_PER_SECOND?: number;
  @Integer(1, 1_000_000) CONSOLE_QUERY_LIMIT_CONCURRENT?: number;
  @Integer(1, 1_000_000_000) CONSOLE_EXPORT_LIMIT_PER_HOUR?: number;
  @Integer(1, 1_000_000_000) CONSOLE_EXPORT_LIMIT_PER_SECOND?: number;
  @Integer(1, 1_000_000) CONSOLE_EXPORT_LIMIT_CONCURRENT?: number;
}
