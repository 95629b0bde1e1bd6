import { AppConfig } from '@analytics/config';
import { DynamicModule, Global, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { LoggerModule } from 'nestjs-pino';
import { EngineProbes } from './engine-probes';
import { HealthController } from './health.controller';
import { HttpMetricsMiddleware } from './http-metrics.middleware';
import { MetricsService } from './metrics.service';
import { requestId } from './request-id';

/** JSON logs with request ids, /healthz, /readyz and Prometheus /metrics: every service mounts it. */
@Global()
@Module({})
export class ObservabilityModule implements NestModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ObservabilityModule,
      imports: [
        TerminusModule.forRoot({ logger: false }),
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.logLevel,
            genReqId: requestId,
            redact: ['req.headers.authorization', 'req.headers.cookie', 'req.query.token'],
            // Probes and scrapes every few seconds would drown the request log.
            autoLogging: { ignore: (req) => ['/healthz', '/readyz', '/metrics'].includes(req.url ?? '') },
            customProps: () => ({ service: config.services.length === 1 ? config.services[0] : 'standalone' }),
          },
        }),
      ],
      controllers: [HealthController],
      providers: [EngineProbes, MetricsService],
      exports: [MetricsService],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(HttpMetricsMiddleware).forRoutes('*path');
  }
}
