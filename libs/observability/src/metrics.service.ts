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
    const latency = new Gauge({
      name: 'analytics_engine_ping_seconds',
      help: 'How long the engine took to answer a ping during this scrape',
      labelNames: ['engine'] as const,
      registers: [],
    });
    // Registered first and probing at scrape time, so both gauges are current in the same scrape.
    const up = new Gauge({
      name: 'analytics_engine_up',
      help: '1 when the engine answered a ping during this scrape',
      labelNames: ['engine'] as const,
      registers: [this.registry],
      async collect() {
        for (const outcome of await probes.probe()) {
          this.set({ engine: outcome.engine }, outcome.up ? 1 : 0);
          latency.set({ engine: outcome.engine }, outcome.seconds);
        }
      },
    });
    void up;
    this.registry.registerMetric(latency);
  }

  metrics(): Promise<string> {
    return this.registry.metrics();
  }
}
