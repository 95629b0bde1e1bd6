import { AppConfig } from '@analytics/config';
import { startKafkaBatches } from '@analytics/kafka';
import { createServiceApp, RootModuleFactory } from '@analytics/runtime';
import { INestApplication } from '@nestjs/common';
import { Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface TestApp {
  app: INestApplication;
  baseUrl: string;
  close(): Promise<void>;
}

/** A service listening on 127.0.0.1 on a free port, built exactly as its main.ts builds it. */
export async function startTestApp(root: RootModuleFactory, config: AppConfig, title = 'test'): Promise<TestApp> {
  const app = await createServiceApp(root, config, title);
  await app.init();
  await startKafkaBatches(app);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    app,
    baseUrl: `http://127.0.0.1:${port}`,
    // A test is over: connections still open (a stream whose client left, keep-alive sockets) go at
    // once, rather than holding the close until the server's request timeout ends them.
    close: async () => {
      (app.getHttpServer() as Server).closeAllConnections();
      await app.close();
    },
  };
}
