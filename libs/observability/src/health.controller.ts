import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheck } from '@nestjs/terminus';
import { HealthChecks } from './health-checks';

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** /healthz, /readyz and /metrics on the API port: mounted only when MANAGEMENT_PORT is unset. */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(private readonly checks: HealthChecks) {}

  @Get('healthz')
  @HealthCheck()
  live() {
    return this.checks.live();
  }

  @Get('readyz')
  @HealthCheck()
  ready() {
    return this.checks.ready();
  }

  @Get('metrics')
  @Header('Content-Type', METRICS_CONTENT_TYPE)
  scrape(): Promise<string> {
    return this.checks.metrics();
  }
}
