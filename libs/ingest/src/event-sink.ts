import { EventRow } from '@analytics/events';

/** Thrown when the events could not be persisted: the gateway answers 503 and the client retries. */
export class SinkUnavailableError extends Error {}

/**
 * Where validated events go. The gateway answers success only after `publish` resolved: the broker
 * acknowledged them (acks=all), or, without a broker, ClickHouse stored them.
 */
export abstract class EventSink {
  abstract publish(projectId: number, rows: EventRow[]): Promise<void>;
}
