import type { IncomingHttpHeaders } from 'node:http';
import { RequestQuota } from './rate-limiter.factory';

/** The header the web console sends with every call (docs/console.md), naming the budget it spends. */
export const CONSOLE_CLIENT_HEADER = 'x-analytics-console';

/**
 * A reading API's two budgets per project: the public one (the spec's numbers, for scripts and
 * connectors) and the console's, for people clicking. Any client may say it is the console, so the
 * console's budget is bounded like the other: the most a project can be asked is the sum of both.
 */
export class ReadingQuota {
  constructor(
    private readonly api: RequestQuota,
    private readonly console: RequestQuota,
  ) {}

  /** The budget a request with these headers spends. */
  for(headers: IncomingHttpHeaders): RequestQuota {
    return headers[CONSOLE_CLIENT_HEADER] === '1' ? this.console : this.api;
  }
}
