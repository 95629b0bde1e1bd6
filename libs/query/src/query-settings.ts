import { AppConfig, loadConfig } from '@analytics/config';

/** The query service's settings: the `query` slice of AppConfig (QUERY_LIMIT_*, QUERY_MAX_EXECUTION_SECONDS, QUERY_MAX_MEMORY_MB). */
export interface QuerySettings {
  /** Per project: queries an hour, a second, and at once (the spec's 60 / 3 / 5 by default). */
  limits: { perHour: number; perSecond: number; concurrent: number };
  /** ClickHouse's max_execution_time for every query, in seconds. */
  maxExecutionSeconds: number;
  /** ClickHouse's max_memory_usage for every query, in bytes: past it the report is refused with a 400. */
  maxMemoryBytes: number;
  /**
   * Whether unique counts resolve ids through identity_lookup (one server: chDB or a single
   * ClickHouse) rather than the join with identity_map (a cluster, whose servers' Join tables the
   * writer does not reach: docs/identity.md, "Readers").
   */
  identityLookup: boolean;
}

export const QUERY_SETTINGS = Symbol('QuerySettings');

export function querySettingsOf(config: AppConfig): QuerySettings {
  return { ...config.query, identityLookup: !config.clickhouseCluster };
}

/** The settings from an environment, validated with the rest of the configuration. */
export function loadQuerySettings(env: Record<string, string | undefined> = process.env): QuerySettings {
  return querySettingsOf(loadConfig(env));
}
