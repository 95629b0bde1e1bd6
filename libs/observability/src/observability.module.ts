import { ClockModule, IdSource } from '@analytics/clock';
import { AppConfig } from '@analytics/config';
import { DynamicModule, Global, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { LoggerModule } from 'nestjs-pino';
import pretty from 'pino-pretty';
import { EngineName, EngineProbes, READINESS_ENGINES } from './engine-probes';
import { HealthChecks } from './health-checks';
import { HealthController } from './health.controller';
import { HttpMetricsMiddleware } from './http-metrics.middleware';
import { ManagementListener } from './management-listener';
import { MetricsService } from './metrics.service';
import { ReadinessConditions } from './readiness-conditions';
import { requestIds } from './request-id';

/**
 * Where logs go: one readable, coloured line per entry when a person watches a terminal; JSON lines
 * otherwise (containers, files, pipes), for log collectors. Synchronous, so that what a process
 * prints after logging (the first-start banner) comes after the log lines.
 */
function logDestination(): NodeJS.WritableStream {
  if (!process.stdout.isTTY) return process.stdout;
  return pretty({
    sync: true,
    colorize: true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,req,res,responseTime,context,service',
    // Request lines read as requests; everything else as "[context] message".
    messageFormat: (log, messageKey) => {
      const { req, res, responseTime, context } = log as {
        req?: { method: string; url: string };
        res?: { statusCode: number };
        responseTime?: number;
        context?: string;
      };
      if (req && res) return `${req.method} ${req.url} ${res.statusCode} ${responseTime ?? '?'} ms`;
      return context ? `[${context}] ${String(log[messageKey])}` : String(log[messageKey]);
    },
  });
}

/** JSON logs with request ids, /healthz, /readyz and Prometheus /metrics (on MANAGEMENT_PORT when set): every service mounts it. */
@Global()
@Module({})
export class ObservabilityModule implements NestModule {
  /** `ready`: the engines this process's services cannot serve without (its readiness probes those only). */
  static forRoot(config: AppConfig, ready: readonly EngineName[]): DynamicModule {
    return {
      module: ObservabilityModule,
      imports: [
        TerminusModule.forRoot({ logger: false }),
        LoggerModule.forRootAsync({
          imports: [ClockModule],
          inject: [IdSource],
          useFactory: (ids: IdSource) => ({
            pinoHttp: [
              {
                level: config.logLevel,
                genReqId: requestIds(ids),
                redact: ['req.headers.authorization', 'req.headers.cookie', 'req.query.token', 'req.query.signature'],
                // A download link's signature is a bearer credential until it expires: keep it out of logged URLs.
                serializers: {
                  req: (req: { url?: string }) => ({
                    ...req,
                    url: req.url?.replace(/([?&]signature=)[^&]*/g, '$1[Redacted]'),
                  }),
                },
                // Probes and scrapes every few seconds would drown the request log.
                autoLogging: { ignore: (req) => ['/healthz', '/readyz', '/metrics'].includes(req.url ?? '') },
                customProps: () => ({ service: config.services.length === 1 ? config.services[0] : 'standalone' }),
              },
              logDestination(),
            ],
          }),
        }),
      ],
      // With MANAGEMENT_PORT the three answers move to their own listener (runtime starts it), off the API port.
      controllers: config.managementPort === undefined ? [HealthController] : [],
      providers: [
        { provide: READINESS_ENGINES, useValue: ready },
        EngineProbes,
        ReadinessConditions,
        MetricsService,
        HealthChecks,
        ManagementListener,
      ],
      exports: [MetricsService, ReadinessConditions, ManagementListener],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(HttpMetricsMiddleware).forRoutes('*path');
  }
}
