import { AppConfig } from '@analytics/config';
import { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { createServer } from 'node:http';
import { closeStalledWrites } from './stalled-writes';

/**
 * Nest's Express adapter with an HTTP server built with the platform's limits. Some of them (the
 * header size, how often slow connections are checked) can only be given when the server is created;
 * a client that stops reading its response is cut after HTTP_WRITE_STALL_TIMEOUT_MS (stalled-writes.ts).
 */
export class LimitedExpressAdapter extends ExpressAdapter {
  constructor(private readonly limits: AppConfig['http']) {
    super();
  }

  override initHttpServer(options: NestApplicationOptions): void {
    // TLS ends at the ingress; forced connection closing is not used. Both keep Nest's own server.
    if (options.httpsOptions || options.forceCloseConnections) return super.initHttpServer(options);
    const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs, maxHeaderBytes } = this.limits;
    this.httpServer = createServer(
      {
        maxHeaderSize: maxHeaderBytes,
        headersTimeout: headersTimeoutMs,
        requestTimeout: requestTimeoutMs,
        keepAliveTimeout: keepAliveTimeoutMs,
        // Slow connections are looked for this often: a fraction of the shortest limit, not Node's 30 s.
        connectionsCheckingInterval: Math.max(250, Math.min(headersTimeoutMs, requestTimeoutMs) / 4),
      },
      this.getInstance(),
    );
    closeStalledWrites(this.httpServer, this.limits.writeStallTimeoutMs);
  }
}
