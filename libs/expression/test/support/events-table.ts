import { ClickHouseClient, createClickHouseClient } from '@analytics/clickhouse';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventRow, eventsScope, JsonObject, toPropertiesJson } from '@analytics/expression';
import { ExpressionRow } from '../../src/expression-row';
import { QueryParameterValue } from '../../src/sql/query-parameters';
import { GeneratedEvent } from '../../src/testing/event-arbitraries';

/** The events table's columns (libs/clickhouse migration 0001) plus an id and a joined profile's properties. */
export const TEST_TABLE = 'expression_events';
/** Profiles by distinct id, as a query would join them. */
export const TEST_PROFILES_TABLE = 'expression_profiles';
export const TEST_SCOPE = eventsScope({ userPropertiesJson: 'user_properties' });

export interface GeneratedProfile {
  readonly distinctId: string;
  readonly properties: JsonObject;
}

/** Generated events (and profiles) in chDB tables of their own, in a temporary directory removed on close. */
export class EventsTable {
  private constructor(
    private readonly client: ClickHouseClient,
    private readonly directory: string,
  ) {}

  static async create(
    events: readonly GeneratedEvent[],
    profiles: readonly GeneratedProfile[] = [],
  ): Promise<EventsTable> {
    const directory = mkdtempSync(join(tmpdir(), 'expression-'));
    const table = new EventsTable(createClickHouseClient(`chdb:${directory}`), directory);
    await table.client.command({
      query:
        `CREATE TABLE ${TEST_TABLE} (id UInt32, event LowCardinality(String), time DateTime64(3, 'UTC'), distinct_id String, ` +
        `insert_id String, properties String, user_properties String) ENGINE = MergeTree ORDER BY id`,
    });
    await table.client.command({
      query: `CREATE TABLE ${TEST_PROFILES_TABLE} (distinct_id String, properties String) ENGINE = MergeTree ORDER BY distinct_id`,
    });
    if (events.length > 0)
      await table.client.insert({ table: TEST_TABLE, values: events.map(storedRow), format: 'JSONEachRow' });
    if (profiles.length > 0) {
      const values = profiles.map((profile) => ({
        distinct_id: profile.distinctId,
        properties: toPropertiesJson(profile.properties),
      }));
      await table.client.insert({ table: TEST_PROFILES_TABLE, values, format: 'JSONEachRow' });
    }
    return table;
  }

  async query<T>(query: string, params: Record<string, QueryParameterValue> = {}): Promise<T[]> {
    const result = await this.client.query({ query, query_params: params, format: 'JSONEachRow' });
    return result.json<T>();
  }

  async close(): Promise<void> {
    await this.client.close();
    rmSync(this.directory, { recursive: true, force: true });
  }
}

function storedRow(event: GeneratedEvent, id: number) {
  return {
    id,
    event: 'generated',
    time: new Date(event.timeMs).toISOString().replace('T', ' ').replace('Z', ''),
    distinct_id: event.distinctId,
    insert_id: event.insertId,
    properties: toPropertiesJson(event.properties),
    user_properties: event.user === undefined ? '' : toPropertiesJson(event.user),
  };
}

/** The same event as the reference evaluator sees it: the exported shape, read back from the stored JSON text. */
export function referenceRow(event: GeneratedEvent): ExpressionRow {
  const properties = JSON.parse(toPropertiesJson(event.properties)) as JsonObject;
  const user = event.user === undefined ? undefined : (JSON.parse(toPropertiesJson(event.user)) as JsonObject);
  return eventRow(
    {
      event: 'generated',
      timeMs: event.timeMs,
      properties: { ...properties, distinct_id: event.distinctId, $insert_id: event.insertId },
    },
    user,
  );
}
