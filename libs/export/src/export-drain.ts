import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { ExportError, ExportErrorCode } from './export-error';

/** What a client refused during a shutdown is told to wait: by then another replica takes the export. */
const RETRY_AFTER_SECONDS = 5;

/**
 * Lets running exports finish when the service stops (a rollout, a scale-in): on SIGTERM new exports
 * are refused with 503 and Retry-After, and the shutdown waits for the running ones before the HTTP
 * server and the engines close. The runtime's SHUTDOWN_TIMEOUT_MS bounds the wait: past it the
 * process exits anyway and what still runs is cut.
 */
@Injectable()
export class ExportDrain implements BeforeApplicationShutdown {
  private draining = false;
  private readonly running = new Set<Promise<unknown>>();

  /** Runs one export, or refuses it once the service is stopping. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.draining)
      throw new ExportError(
        ExportErrorCode.ShuttingDown,
        'this server is shutting down; retry the export, another server will answer',
        RETRY_AFTER_SECONDS,
      );
    const running = work();
    this.running.add(running);
    try {
      return await running;
    } finally {
      this.running.delete(running);
    }
  }

  /** Nest calls this on shutdown before the HTTP server closes: refuse new exports, wait for the running ones. */
  async beforeApplicationShutdown(): Promise<void> {
    this.draining = true;
    while (this.running.size) await Promise.allSettled([...this.running]);
  }
}
