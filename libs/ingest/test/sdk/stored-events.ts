import { eventually } from '@analytics/testing';
import { IngestHarness } from '../ingest-harness';

/** A stored event with its custom properties parsed back into the JSON values they were sent as. */
export interface SdkStoredEvent {
  event: string;
  distinct_id: string;
  time_ms: number;
  insert_id: string;
  properties: Record<string, unknown>;
}

/** A ClickHouse string literal (the harness takes its filter as SQL). */
export const sqlString = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** Events whose custom property `name` is the string `value`: each test tags its events so it reads only its own. */
export const whereProperty = (name: string, value: string) =>
  `JSONExtractString(properties, ${sqlString(name)}) = ${sqlString(value)}`;

export async function readStoredEvents(harness: IngestHarness, where: string): Promise<SdkStoredEvent[]> {
  const rows = await harness.stored(where);
  return rows.map(({ event, distinct_id, time_ms, insert_id, properties }) => ({
    event,
    distinct_id,
    time_ms: Number(time_ms),
    insert_id,
    properties: JSON.parse(properties) as Record<string, unknown>,
  }));
}

/**
 * Polls until exactly `count` events match (Kafka-backed writers store after answering), then
 * returns them in time order. Fails with the count found when they never all arrive.
 */
export function waitForStoredEvents(
  harness: IngestHarness,
  where: string,
  count: number,
  timeoutMs = 20_000,
): Promise<SdkStoredEvent[]> {
  return eventually(
    async () => {
      const events = await readStoredEvents(harness, where);
      if (events.length !== count) {
        throw new Error(
          `expected ${count} stored events where ${where}, found ${events.length}: ${events.map((e) => e.event).join(', ')}`,
        );
      }
      return events;
    },
    { timeoutMs, intervalMs: 100 },
  );
}
