import { Injectable } from '@nestjs/common';
import { HealthCheckResult, HealthCheckService, HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { EngineProbes } from './engine-probes';
import { MetricsService } from './metrics.service';
import { ReadinessConditions } from './readiness-conditions';

/**
 * What /healthz, /readyz and /metrics answer, wherever they are served: on the API port (the
 * HealthController) or on MANAGEMENT_PORT (the ManagementListener). A failed check rejects with
 * terminus's 503 ServiceUnavailableException, whose response names each failing check.
 */
@Injectable()
export class HealthChecks {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly probes: EngineProbes,
    private readonly conditions: ReadinessConditions,
    private readonly metricsService: MetricsService,
  ) {}

  /** Liveness: the process serves HTTP. Never touches an engine, so a slow engine cannot get pods killed. */
  live(): Promise<HealthCheckResult> {
    return this.health.check([]);
  }

  /** Readiness: the engines this service needs answer, and every readiness condition holds; 503 otherwise. */
  ready(): Promise<HealthCheckResult> {
    return this.health.check([
      async () => {
        const [engines, conditions] = await Promise.all([this.probes.probe(), this.conditions.run()]);
        const results = [...engines.map((o) => ({ ...o, name: o.engine })), ...conditions].map((o) =>
          o.up
            ? this.indicators.check(o.name).up()
            : this.indicators.check(o.name).down({ message: o.error ?? 'down' }),
        );
        return Object.assign({}, ...results) as HealthIndicatorResult;
      },
    ]);
  }

  metrics(): Promise<string> {
    return this.metricsService.metrics();
  }
}
