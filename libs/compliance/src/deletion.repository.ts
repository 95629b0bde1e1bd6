import {
  ClickHouseClient,
  ClickHouseDdl,
  countRows,
  DELETE_ON_EVERY_REPLICA_SETTINGS,
  IDENTITY_LOOKUP_TABLE,
} from '@analytics/clickhouse';
import { erasedEventsSql, EVENTS_TABLE, EventsDeletionRepository } from '@analytics/event-store';
import { IdentityRepository } from '@analytics/identity';
import { Postgres, selectRows } from '@analytics/postgres';
import { pgSql } from '@analytics/tenancy';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { deleteRowsSql, DeletionScope, remainingRowsSql } from './deletion-sql';
import { DISTINCT_ID_TABLES, DistinctIdTable } from './distinct-id-tables';

/**
 * Erases the ids from every table of the registry: ClickHouse lightweight `DELETE` (on each shard's
 * local table on a cluster), plain `delete` in Postgres; then counts what is left in each. The
 * events table's owner, the event store, deletes and counts its rows itself.
 */
@Injectable()
export class DeletionRepository {
  private readonly logger = new Logger(DeletionRepository.name);

  constructor(
    @Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient,
    private readonly ddl: ClickHouseDdl,
    private readonly postgres: Postgres,
    private readonly identities: IdentityRepository,
    private readonly events: EventsDeletionRepository,
  ) {}

  private pgPredicate(table: DistinctIdTable, scope: DeletionScope) {
    // Registry names are constants of this lib, never user input.
    return pgSql`${scope.project} and ${sql.identifier(table.column)} in (select jsonb_array_elements_text(${JSON.stringify(scope.distinctIds)}::jsonb))${table.where ? sql.raw(` and ${table.where}`) : sql``}`;
  }

  /** Deletes the scope's rows everywhere; idempotent (a repeat deletes nothing more). */
  async delete(scope: DeletionScope, signal?: AbortSignal): Promise<void> {
    // The unique counts' copy of the mapping first, by the ids themselves (it does not change the expansion a retry recomputes).
    await this.identities.forget(scope.project, scope.distinctIds, signal);
    for (const table of DISTINCT_ID_TABLES) {
      if (table.kept) continue;
      const started = Date.now();
      if (table.table === EVENTS_TABLE && table.engine === 'clickhouse') {
        await this.events.delete(erasedEventsSql(scope), signal);
      } else if (table.engine === 'clickhouse') {
        const { sql: query, params } = deleteRowsSql(this.ddl, table, scope);
        await this.clickhouse.command({
          query,
          query_params: params,
          clickhouse_settings: DELETE_ON_EVERY_REPLICA_SETTINGS,
          abort_signal: signal,
        });
      } else {
        await this.postgres.db.execute(
          sql`delete from ${sql.identifier(table.table)} where ${this.pgPredicate(table, scope)}`,
        );
      }
      // Which table a slow deletion spends its time on (LOG_LEVEL=debug).
      this.logger.debug(
        `project ${scope.project.projectId}: deleted ${scope.distinctIds.length} id(s) from ${table.engine} ${table.table} in ${Date.now() - started} ms`,
      );
    }
  }

  /** Rows of the scope still stored, per table (ClickHouse without FINAL: every copy counts). */
  async remaining(scope: DeletionScope, signal?: AbortSignal): Promise<Record<string, number>> {
    const counts: Record<string, number> = {
      [`clickhouse.${IDENTITY_LOOKUP_TABLE}`]: await this.identities.lookupRows(
        scope.project,
        scope.distinctIds,
        signal,
      ),
    };
    for (const table of DISTINCT_ID_TABLES) {
      if (table.kept) continue;
      if (table.table === EVENTS_TABLE && table.engine === 'clickhouse') {
        counts[`clickhouse.${table.table}`] = await this.events.count(erasedEventsSql(scope), signal);
      } else if (table.engine === 'clickhouse') {
        counts[`clickhouse.${table.table}`] = await countRows(this.clickhouse, remainingRowsSql(table, scope), signal);
      } else {
        const [row] = await selectRows<{ n: string | number }>(
          this.postgres.db,
          sql`select count(*) as n from ${sql.identifier(table.table)} where ${this.pgPredicate(table, scope)}`,
        );
        counts[`postgres.${table.table}`] = Number(row?.n ?? 0);
      }
    }
    return counts;
  }
}
