import { MetricsService } from '@analytics/observability';
import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { DropCounter } from './event-dictionary';

/** `analytics_ingest_dropped_total{kind="event|property"}`: what the dictionary's `dropped` flags kept out. */
@Injectable()
export class DroppedDataMetrics implements DropCounter {
  // Children resolved once: these are counted per event and per property on the ingestion path.
  private readonly events: Counter.Internal;
  private readonly properties: Counter.Internal;

  constructor(metrics: MetricsService) {
    const dropped = new Counter({
      name: 'analytics_ingest_dropped_total',
      help: 'Events and event properties the data dictionary marked dropped, left out at the gateway (never stored)',
      labelNames: ['kind'] as const,
      registers: [metrics.registry],
    });
    this.events = dropped.labels({ kind: 'event' });
    this.properties = dropped.labels({ kind: 'property' });
  }

  eventDropped(): void {
    this.events.inc();
  }

  propertyDropped(): void {
    this.properties.inc();
  }
}
