import { AppConfig } from '@analytics/config';
import { startKafkaBatches } from '@analytics/kafka';
import { createServiceApp, listenManagement, RootModuleFactory } from '@analytics/runtime';
import { INestApplication } from '@nestjs/common';
import { Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface TestApp {
  app: INestApplication;
  baseUrl: string;
  /** The management port's base URL, when the config sets MANAGEMENT_PORT (0 picks a free port). */
  managementUrl?: string;
  close(): Promise<void>;
}

/** A service listening on 127.0.0.1 on a free port, built exactly as its main.ts builds it. */
export async function startTestApp(root: RootModuleFactory, config: AppConfig, title = 'test'): Promise<TestApp> {
  const app = await createServiceApp(root, config, title);
  await app.init();
  await startKafkaBatches(app);
  const management = await listenManagement(app, config, '127.0.0.1');
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    app,
    baseUrl: `http://127.0.0.1:${port}`,
    managementUrl: management === undefined ? undefined : `http://127.0.0.1:${management}`,
    // A test is over: connections still open (a stream whose client left, keep-alive sockets) go at
    // once, rather than holding the close until the server's request timeout ends them.
    close: async () => {
      (app.getHttpServer() as Server).closeAllConnections();
      await app.close();
    },
  };
}
