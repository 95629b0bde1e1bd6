import { EventRow } from '@analytics/events';

/** An event the store refused on its own (the rest of its request was stored), by its position in the published list. */
export interface RefusedEvent {
  position: number;
  /** Its `$insert_id` as stored: the gateway keeps nothing of the rows while the sink works. */
  insertId: string;
  message: string;
}

/**
 * Where validated events go. The gateway answers success only after `publish` resolved: the broker
 * acknowledged them (acks=all), or, without a broker, ClickHouse stored them. Only the in-process
 * path can tell an event the store refuses; through Kafka such a message is dead-lettered.
 */
export abstract class EventSink {
  abstract publish(projectId: number, rows: EventRow[]): Promise<RefusedEvent[]>;
}
