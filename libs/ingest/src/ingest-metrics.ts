import { MetricsService } from '@analytics/observability';
import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';

@Injectable()
export class IngestMetrics {
  readonly events: Counter<'endpoint' | 'outcome'>;

  constructor(metrics: MetricsService) {
    this.events = new Counter({
      name: 'analytics_ingest_events_total',
      help: 'Events received by the gateway, by endpoint and outcome (accepted, rejected, ignored, dropped)',
      labelNames: ['endpoint', 'outcome'] as const,
      registers: [metrics.registry],
    });
  }
}
