import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { EngineProbes } from './engine-probes';
import { MetricsService } from './metrics.service';

@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly probes: EngineProbes,
    private readonly metrics: MetricsService,
  ) {}

  /** Liveness: the process serves HTTP. Never touches an engine, so a slow engine cannot get pods killed. */
  @Get('healthz')
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  /** Readiness: every engine this service uses answers; 503 otherwise. */
  @Get('readyz')
  @HealthCheck()
  ready() {
    return this.health.check([
      async () => {
        const outcomes = await this.probes.probe();
        const results = outcomes.map((o) =>
          o.up
            ? this.indicators.check(o.engine).up()
            : this.indicators.check(o.engine).down({ message: o.error ?? 'down' }),
        );
        return Object.assign({}, ...results) as HealthIndicatorResult;
      },
    ]);
  }

  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): Promise<string> {
    return this.metrics.metrics();
  }
}
