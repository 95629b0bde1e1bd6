import { MetricsService } from '@analytics/observability';
import { Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';

@Injectable()
export class ProfileMetrics {
  readonly received: Counter<'endpoint' | 'outcome'>;
  readonly applied: Counter<string>;
  readonly inapplicable: Counter<string>;
  readonly overLimit: Counter<'limit'>;
  readonly applySeconds: Histogram<string>;
  readonly retries: Counter<string>;
  readonly deadLetters: Counter<string>;

  constructor(metrics: MetricsService) {
    const registers = [metrics.registry];
    this.received = new Counter({
      name: 'analytics_ingest_profile_updates_total',
      help: 'Profile updates received by the gateway, by endpoint (engage, groups) and outcome (accepted, rejected)',
      labelNames: ['endpoint', 'outcome'] as const,
      registers,
    });
    this.applied = new Counter({
      name: 'analytics_profiles_updates_applied_total',
      help: 'Profile updates applied to Postgres',
      registers,
    });
    this.inapplicable = new Counter({
      name: 'analytics_profiles_updates_inapplicable_total',
      help: 'Profile updates that could not apply to the stored profile (e.g. $add to a string, or past a profile limit)',
      registers,
    });
    this.overLimit = new Counter({
      name: 'analytics_profiles_updates_over_limit_total',
      help: 'Profile updates refused because they would take a profile past a limit (properties, property_bytes, profile_bytes); also counted as inapplicable',
      labelNames: ['limit'] as const,
      registers,
    });
    this.applySeconds = new Histogram({
      name: 'analytics_profiles_apply_seconds',
      help: 'Duration of the Postgres transaction that applies one batch of profile updates',
      buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.retries = new Counter({
      name: 'analytics_profiles_apply_retries_total',
      help: 'Profile batches retried after a passing failure',
      registers,
    });
    this.deadLetters = new Counter({
      name: 'analytics_profiles_dead_letters_total',
      help: 'Profile updates sent to the dead-letter topic',
      registers,
    });
  }
}
