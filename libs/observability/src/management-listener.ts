import { HttpException, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { HealthChecks } from './health-checks';
import { METRICS_CONTENT_TYPE } from './health.controller';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The management port (MANAGEMENT_PORT): /healthz, /readyz and /metrics on a listener of their own,
 * which the ingress does not route, so they are not on the internet. A plain Node server: three
 * read-only answers need no framework, and nothing else is served here (404).
 * Open from start to the end of shutdown: it closes after the API port, once modules have drained.
 */
@Injectable()
export class ManagementListener implements OnApplicationShutdown {
  private server: Server | undefined;

  constructor(private readonly checks: HealthChecks) {}

  /** Resolves with the port it listens on (the one picked when `port` is 0). */
  async listen(port: number, host: string): Promise<number> {
    const server = createServer((req, res) => void this.answer(req, res));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return (server.address() as AddressInfo).port;
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://management').pathname;
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, JSON_TYPE, '{"error":"method not allowed"}');
    try {
      if (path === '/healthz') return send(200, JSON_TYPE, JSON.stringify(await this.checks.live()));
      if (path === '/readyz') return send(200, JSON_TYPE, JSON.stringify(await this.checks.ready()));
      if (path === '/metrics') return send(200, METRICS_CONTENT_TYPE, await this.checks.metrics());
      send(
        404,
        JSON_TYPE,
        JSON.stringify({ error: `no such path: ${path} (this port serves /healthz, /readyz, /metrics)` }),
      );
    } catch (error) {
      // terminus answers a failed check with a 503 whose response names each failing check.
      if (error instanceof HttpException)
        return send(error.getStatus(), JSON_TYPE, JSON.stringify(error.getResponse()));
      send(500, JSON_TYPE, JSON.stringify({ error: (error as Error).message }));
    }
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
