import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { EngineProbes } from './engine-probes';

/** The process's Prometheus registry; other modules register their own metrics on `registry`. */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  readonly httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });

  constructor(probes: EngineProbes) {
    collectDefaultMetrics({ register: this.registry });
    // From the last readiness probe, never a ping of their own: a scrape (often several Prometheus
    // replicas, every few seconds) must not load the engines or wait on a slow one.
    new Gauge({
      name: 'analytics_engine_up',
      help: '1 when the engine answered the last readiness probe (/readyz), 0 when it did not',
      labelNames: ['engine'] as const,
      registers: [this.registry],
      collect() {
        for (const outcome of probes.last.values()) this.set({ engine: outcome.engine }, outcome.up ? 1 : 0);
      },
    });
    new Gauge({
      name: 'analytics_engine_ping_seconds',
      help: 'How long the engine took to answer the last readiness probe (/readyz)',
      labelNames: ['engine'] as const,
      registers: [this.registry],
      collect() {
        for (const outcome of probes.last.values()) this.set({ engine: outcome.engine }, outcome.seconds);
      },
    });
  }

  metrics(): Promise<string> {
    return this.registry.metrics();
  }
}
