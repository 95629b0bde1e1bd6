import { AppConfig, ConfigError, describeEnvironment, loadConfig } from '@analytics/config';
import { startKafkaBatches } from '@analytics/kafka';
import { ManagementListener } from '@analytics/observability';
import { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { AddressInfo, Server } from 'node:net';
import { LimitedExpressAdapter } from './limited-express-adapter';
import { QuietFrameworkLogger } from './quiet-framework-logger';

/** Where every service serves its OpenAPI page (the document is under it, `openapi.json`). */
export const API_DOCS_PATH = 'api/docs';

export type RootModuleFactory = (config: AppConfig) => DynamicModule | Type<unknown>;

/** Builds a service's HTTP application: JSON logger, OpenAPI at /api/docs, nothing listening yet. */
export async function createServiceApp(
  root: RootModuleFactory,
  config: AppConfig,
  title: string,
): Promise<INestApplication> {
  // abortOnError off: a failed start reaches runService, which prints one clear line instead of a stack.
  // Body parsing is left to each feature: ingestion streams raw bodies under a size limit.
  const app = await NestFactory.create<NestExpressApplication>(root(config), new LimitedExpressAdapter(config.http), {
    bufferLogs: true,
    abortOnError: false,
    bodyParser: false,
  });
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  app.useLogger(new QuietFrameworkLogger(app.get(Logger)));
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle(title)
      .setDescription(
        'Product-analytics HTTP API compatible with the Mixpanel API; every endpoint is described in docs/api.md of the project repository.',
      )
      .addBasicAuth()
      .build(),
  );
  SwaggerModule.setup(API_DOCS_PATH, app, document, { jsonDocumentUrl: `${API_DOCS_PATH}/openapi.json` });
  return app;
}

/** Loads the configuration or exits naming every bad variable. */
export function loadConfigOrExit(env: Record<string, string | undefined> = process.env): AppConfig {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * Stops on SIGINT/SIGTERM: stop accepting, let modules drain and flush (their shutdown hooks),
 * close the engines; if that takes longer than SHUTDOWN_TIMEOUT_MS, exit anyway.
 */
export function closeOnSignals(app: INestApplication, config: AppConfig): void {
  let closing = false;
  const stop = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    const logger = app.get(Logger);
    logger.log(`${signal} received: shutting down`);
    const timer = setTimeout(() => {
      logger.error(`Shutdown took longer than ${config.shutdownTimeoutMs} ms: exiting`);
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error(`Shutdown failed: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/**
 * Opens the management port (MANAGEMENT_PORT) when one is set, on `host`: /healthz, /readyz and
 * /metrics are served there and nowhere else. Resolves with its port (the real one for 0).
 */
export async function listenManagement(
  app: INestApplication,
  config: AppConfig,
  host = config.host,
): Promise<number | undefined> {
  if (config.managementPort === undefined) return undefined;
  return app.get(ManagementListener).listen(config.managementPort, host);
}

/** The whole life of a service process: config, app, listen, signals. */
export async function runService(
  root: RootModuleFactory,
  title: string,
  /** First-start work, done once the modules are up and before the port opens. */
  beforeListen?: (app: INestApplication, config: AppConfig) => Promise<void>,
): Promise<void> {
  const config = loadConfigOrExit();
  try {
    const app = await createServiceApp(root, config, title);
    closeOnSignals(app, config);
    // First-start work (the bootstrap owner and project) is done before the port opens, so a ready
    // process accepts the credentials it printed.
    await app.init();
    if (beforeListen) await beforeListen(app, config);
    // The writers' handlers mounted here (with a broker) start consuming before the port opens.
    await startKafkaBatches(app);
    const management = await listenManagement(app, config);
    await app.listen(config.port, config.host);
    const { port } = (app.getHttpServer() as Server).address() as AddressInfo; // the real one when PORT=0
    const health = management === undefined ? '' : ` (health and metrics on ${management})`;
    app
      .get(Logger)
      .log(`${title} listening on ${config.host}:${port}${health}; settings ${JSON.stringify(describeEnvironment())}`);
  } catch (error) {
    process.stderr.write(`${title} could not start: ${(error as Error).message}\n`);
    process.exit(1);
  }
}
