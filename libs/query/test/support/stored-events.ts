import { ClickHouseClient, ClickHouseDdl, ClickHouseMigrator, createClickHouseClient } from '@analytics/clickhouse';
import { EVENTS_TABLE } from '@analytics/event-store';
import { PROFILES_MIRROR_TABLE } from '@analytics/profile-store';
import { formatEpochSeconds } from '@analytics/events';
import { JsonObject, toPropertiesJson } from '@analytics/expression';
import { CLICKHOUSE_MIGRATIONS } from '@analytics/runtime';
import { createTestClickHouse, TestResource } from '@analytics/testing';
import { QueryRunner } from '../../src/clickhouse/query-runner';
import { loadQuerySettings } from '../../src/query-settings';
import { QueryEvent } from '../../src/reference/query-event';

/** An event as written to the events table: duplicates (same dedup key) may differ in properties and processing time. */
export interface StoredEvent extends QueryEvent {
  processedMs: number;
}

const dedupKey = (e: QueryEvent) => JSON.stringify([e.event, e.timeMs, e.distinctId, e.insertId]);

/** What `FINAL` reads: one row per dedup key, the one processed last (the later insert on a tie). */
export function deduplicate(events: readonly StoredEvent[]): QueryEvent[] {
  const kept = new Map<string, StoredEvent>();
  for (const event of events) {
    const held = kept.get(dedupKey(event));
    if (!held || event.processedMs >= held.processedMs) kept.set(dedupKey(event), event);
  }
  // Read back as the stored JSON text parses, exactly as ClickHouse sees it.
  return [...kept.values()].map(({ processedMs: _, ...event }) => ({
    ...event,
    properties: JSON.parse(toPropertiesJson(event.properties)) as JsonObject,
  }));
}

function row(projectId: number, event: StoredEvent) {
  return {
    project_id: projectId,
    event: event.event,
    time: formatEpochSeconds(event.timeMs),
    distinct_id: event.distinctId,
    insert_id: event.insertId,
    properties: toPropertiesJson(event.properties),
    processed_at: formatEpochSeconds(event.processedMs),
  };
}

/** A migrated test ClickHouse (chDB unless CLICKHOUSE_URL names a server) holding generated events. */
export class EventsStore {
  private constructor(
    private readonly resource: TestResource,
    readonly client: ClickHouseClient,
    readonly runner: QueryRunner,
  ) {}

  /** `migrations`: a prefix of them, for data stored before the later ones (`migrate` applies the rest). */
  static async create(migrations = CLICKHOUSE_MIGRATIONS): Promise<EventsStore> {
    const resource = await createTestClickHouse();
    const client = createClickHouseClient(resource.url);
    await new ClickHouseMigrator(client, new ClickHouseDdl()).migrate(migrations);
    return new EventsStore(resource, client, new QueryRunner(client, loadQuerySettings({})));
  }

  /** Each batch is its own insert (its own part), so FINAL really has duplicates to collapse. */
  async insert(batches: readonly (readonly [number, StoredEvent])[][]): Promise<void> {
    for (const batch of batches) {
      if (batch.length)
        await this.client.insert({
          table: EVENTS_TABLE,
          values: batch.map(([project, event]) => row(project, event)),
          format: 'JSONEachRow',
        });
    }
  }

  /**
   * User profiles into the mirror, each as its version 2, after a version 1 with other properties
   * that `FINAL` must hide.
   */
  async insertProfiles(project: number, profiles: ReadonlyMap<string, JsonObject>): Promise<void> {
    const row = (id: string, properties: JsonObject, version: number) => ({
      project_id: project,
      group_key: '',
      profile_id: id,
      properties: JSON.stringify(properties),
      version,
      is_deleted: 0,
      created_at: formatEpochSeconds(1_700_000_000_000),
      updated_at: formatEpochSeconds(1_700_000_000_000 + version),
    });
    const ids = [...profiles.keys()];
    if (!ids.length) return;
    await this.client.insert({
      table: PROFILES_MIRROR_TABLE,
      values: ids.map((id) => row(id, { tier: 'stale', seats: 99 }, 1)),
      format: 'JSONEachRow',
    });
    await this.client.insert({
      table: PROFILES_MIRROR_TABLE,
      values: ids.map((id) => row(id, profiles.get(id)!, 2)),
      format: 'JSONEachRow',
    });
  }

  async migrate(): Promise<void> {
    await new ClickHouseMigrator(this.client, new ClickHouseDdl()).migrate(CLICKHOUSE_MIGRATIONS);
  }

  async close(): Promise<void> {
    await this.client.close();
    await this.resource.dispose();
  }
}
