import { MetricsService } from '@analytics/observability';
import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';

@Injectable()
export class IdentityMetrics {
  readonly applied: Counter<string>;
  readonly refused: Counter<string>;
  readonly retries: Counter<string>;
  readonly deadLetters: Counter<string>;

  constructor(metrics: MetricsService) {
    const registers = [metrics.registry];
    this.applied = new Counter({ name: 'analytics_identity_links_applied_total', help: 'Identity links applied to the mapping (repeats included)', registers });
    this.refused = new Counter({ name: 'analytics_identity_links_refused_total', help: 'Identity links refused: the cluster would pass 500 ids', registers });
    this.retries = new Counter({ name: 'analytics_identity_write_retries_total', help: 'Identity mapping writes retried after a passing failure', registers });
    this.deadLetters = new Counter({ name: 'analytics_identity_dead_letters_total', help: 'Identity link messages sent to the dead-letter topic', registers });
  }
}
