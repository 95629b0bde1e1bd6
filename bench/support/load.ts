import { BodyTemplate, bodyOf, EVENTS_PER_BATCH, requestPrefix } from './event-bodies';

export interface LoadResult {
  requests: number;
  events: number;
  failures: number;
  /** Status codes other than 200, with their counts. */
  statuses: Record<string, number>;
  /** Request latencies (send → full answer read), ms. */
  latencies: number[];
  seconds: number;
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * HTTP load on one gateway with fetch (Node's undici, keep-alive connections): closed loop (each
 * client sends its next batch when the last was answered) or paced (a fixed offered rate, with a
 * cap on requests outstanding so an overloaded gateway cannot make it run away).
 */
export class LoadGenerator {
  private sequence = 0;

  constructor(
    private readonly url: string,
    private readonly authorization: string,
    private readonly templates: BodyTemplate[],
    private readonly run: string,
  ) {}

  private async request(client: number, result: LoadResult): Promise<void> {
    const sequence = this.sequence++;
    const body = bodyOf(this.templates[sequence % this.templates.length], requestPrefix(this.run, client, sequence));
    const started = performance.now();
    let status = 0;
    try {
      const response = await fetch(`${this.url}/import?strict=1`, {
        method: 'POST',
        body,
        headers: { Authorization: this.authorization, 'Content-Type': 'application/json' },
      });
      status = response.status;
      await response.arrayBuffer();
    } catch {
      status = 0;
    }
    result.requests++;
    if (status === 200) {
      result.events += EVENTS_PER_BATCH;
      result.latencies.push(performance.now() - started);
    } else {
      result.failures++;
      result.statuses[status] = (result.statuses[status] ?? 0) + 1;
    }
  }

  async closedLoop(clients: number, seconds: number): Promise<LoadResult> {
    const result: LoadResult = { requests: 0, events: 0, failures: 0, statuses: {}, latencies: [], seconds };
    const until = Date.now() + seconds * 1000;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        while (Date.now() < until) await this.request(client, result);
      }),
    );
    result.seconds = (Date.now() - started) / 1000;
    return result;
  }

  async paced(eventsPerSecond: number, seconds: number, maxOutstanding = 16): Promise<LoadResult> {
    const result: LoadResult = { requests: 0, events: 0, failures: 0, statuses: {}, latencies: [], seconds };
    const intervalMs = (EVENTS_PER_BATCH / eventsPerSecond) * 1000;
    const started = Date.now();
    const inFlight = new Set<Promise<void>>();
    let skipped = 0;
    for (let k = 0; ; k++) {
      const at = started + k * intervalMs;
      if (at >= started + seconds * 1000) break;
      if (at > Date.now()) await new Promise((resolve) => setTimeout(resolve, at - Date.now()));
      if (inFlight.size >= maxOutstanding) {
        skipped++;
        continue;
      }
      const request = this.request(k % 64, result).finally(() => inFlight.delete(request));
      inFlight.add(request);
    }
    await Promise.all(inFlight);
    result.seconds = (Date.now() - started) / 1000;
    if (skipped) result.statuses.skipped_offered = skipped;
    return result;
  }
}
