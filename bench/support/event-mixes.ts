import { EventContext, validateEvent } from '@analytics/events';
import { randomUUID } from 'node:crypto';
import { bodyOf, buildTemplates, requestPrefix } from './event-bodies';
import { sdkEvents } from './sdk-events';

/** The run: 8 clients × 30 s of /import stored 2,328,000 events, about 77,600 a second. */
const LOADGEN_EVENTS_PER_S = 77_600;

/** An event as sent, with what its request tells the rules (receipt time, the client's IP). */
export interface SentEvent {
  event: unknown;
  receivedMs: number;
  ip?: string;
}

/** The load generator's /import bodies, each request's insert ids its own, received at the rate. */
function* loadgenEvents(count: number): Generator<SentEvent> {
  const startMs = Date.now();
  const templates = buildTemplates(8, 100_000, startMs - 3_600_000);
  for (let request = 0, made = 0; made < count; request++) {
    const body = bodyOf(templates[request % templates.length], requestPrefix('stor', request % 8, request));
    const events = JSON.parse(body) as unknown[];
    const receivedMs = startMs + Math.floor((made / LOADGEN_EVENTS_PER_S) * 1000);
    for (const event of events.slice(0, count - made)) yield { event, receivedMs };
    made += events.length;
  }
}

function* sdkMix(count: number): Generator<SentEvent> {
  for (const sent of sdkEvents(count, { people: 60_000, days: 28, endMs: Date.now(), seed: 36 })) yield sent;
}

export const MIX_SOURCES: Record<string, (count: number) => Generator<SentEvent>> = {
  loadgen: loadgenEvents,
  sdk: sdkMix,
};

/** Each event shaped by the gateway's rules into the stored row it publishes (and the writer inserts). */
export function* shapedRows(
  source: Iterable<SentEvent>,
  projectId: number,
): Generator<{ line: string; sentBytes: number }> {
  for (const { event, receivedMs, ip } of source) {
    const context: EventContext = {
      projectId,
      nowMs: receivedMs,
      policy: 'import',
      requireInsertId: false,
      newInsertId: randomUUID,
      ip,
    };
    const outcome = validateEvent(event, context);
    if (outcome.kind !== 'accepted') throw new Error(`event refused: ${JSON.stringify(outcome)}`);
    yield { line: outcome.row.line, sentBytes: Buffer.byteLength(JSON.stringify(event)) };
  }
}
