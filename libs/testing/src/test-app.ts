import { AppConfig } from '@analytics/config';
import { createServiceApp, RootModuleFactory } from '@analytics/runtime';
import { INestApplication } from '@nestjs/common';
import { AddressInfo } from 'node:net';

export interface TestApp {
  app: INestApplication;
  baseUrl: string;
  close(): Promise<void>;
}

/** A service listening on 127.0.0.1 on a free port, built exactly as its main.ts builds it. */
export async function startTestApp(root: RootModuleFactory, config: AppConfig, title = 'test'): Promise<TestApp> {
  const app = await createServiceApp(root, config, title);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, baseUrl: `http://127.0.0.1:${port}`, close: () => app.close() };
}
