import { LINK_REFUSALS } from '@analytics/events';
import { MetricsService } from '@analytics/observability';
import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';

@Injectable()
export class IdentityMetrics {
  readonly applied: Counter<string>;
  /** By `reason`, the rule that refused (LINK_REFUSALS; docs/identity.md). */
  readonly refused: Counter<'reason'>;
  readonly retries: Counter<string>;
  readonly deadLetters: Counter<string>;

  constructor(metrics: MetricsService) {
    const registers = [metrics.registry];
    this.applied = new Counter({
      name: 'analytics_identity_links_applied_total',
      help: 'Identity links applied to the mapping (repeats included)',
      registers,
    });
    this.refused = new Counter({
      name: 'analytics_identity_links_refused_total',
      help: 'Identity links the merge rules refused, by rule',
      labelNames: ['reason'],
      registers,
    });
    // Every rule shows from the start, at 0, so a rate over it needs no first refusal.
    for (const reason of LINK_REFUSALS) this.refused.inc({ reason }, 0);
    this.retries = new Counter({
      name: 'analytics_identity_write_retries_total',
      help: 'Identity mapping writes retried after a passing failure',
      registers,
    });
    this.deadLetters = new Counter({
      name: 'analytics_identity_dead_letters_total',
      help: 'Identity link messages sent to the dead-letter topic',
      registers,
    });
  }
}
