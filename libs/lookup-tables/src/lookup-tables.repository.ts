import {
  ClickHouseClient,
  ClickHouseDdl,
  DELETE_ON_EVERY_REPLICA_SETTINGS,
  insertFormatted,
} from '@analytics/clickhouse';
import { Postgres, selectRows } from '@analytics/postgres';
import { pgSql, ProjectScope } from '@analytics/tenancy';
import { sql } from 'drizzle-orm';
import { Inject, Injectable } from '@nestjs/common';
import { LookupRow } from './lookup-csv';
import { deleteOlderVersionsSql, deleteTableRowsSql, lookupRowLines, TableVersion } from './lookup-rows-sql';
import { LOOKUP_TABLE_ROWS_TABLE } from './lookup-tables.tables';

/** What a lookup table's property is: an event property or a profile property. */
export type MappedSource = 'event' | 'profile';

export interface LookupMapping {
  readonly source: MappedSource;
  readonly property: string;
}

export interface LookupTable {
  readonly id: string;
  readonly name: string;
  readonly mappedTo: LookupMapping | undefined;
  readonly columns: readonly string[];
  readonly rowCount: number;
  readonly version: number;
  readonly updatedAt: Date;
}

interface TableRow {
  id: string;
  name: string;
  mapped_source: MappedSource | null;
  mapped_property: string | null;
  columns: string[] | string;
  row_count: number;
  version: number | string;
  updated_at: Date | string;
}

const toTable = (row: TableRow): LookupTable => ({
  id: row.id,
  name: row.name,
  mappedTo: row.mapped_source === null ? undefined : { source: row.mapped_source, property: row.mapped_property ?? '' },
  columns: typeof row.columns === 'string' ? (JSON.parse(row.columns) as string[]) : row.columns,
  rowCount: Number(row.row_count),
  version: Number(row.version),
  updatedAt: new Date(row.updated_at),
});

const COLUMNS = pgSql`id::text as id, name, mapped_source, mapped_property, columns, row_count, version, updated_at`;

/** Postgres's `unique_violation`: a property already mapped to another table. */
export const isUniqueViolation = (error: unknown): boolean =>
  (error as { code?: string } | undefined)?.code === '23505' ||
  (error as { cause?: { code?: string } } | undefined)?.cause?.code === '23505';

/**
 * Lookup tables of one project at a time: their metadata in Postgres (lookup_tables) and their rows
 * in ClickHouse (lookup_table_rows), the two tables this lib owns.
 */
@Injectable()
export class LookupTablesRepository {
  constructor(
    private readonly postgres: Postgres,
    @Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient,
    private readonly ddl: ClickHouseDdl,
  ) {}

  async list(scope: ProjectScope): Promise<LookupTable[]> {
    const rows = await selectRows<TableRow>(
      this.postgres.db,
      pgSql`select ${COLUMNS} from lookup_tables where ${scope} order by name, id`,
    );
    return rows.map(toTable);
  }

  async find(scope: ProjectScope, id: string): Promise<LookupTable | undefined> {
    const [row] = await selectRows<TableRow>(
      this.postgres.db,
      pgSql`select ${COLUMNS} from lookup_tables where ${scope} and id = ${id}::uuid`,
    );
    return row && toTable(row);
  }

  /** The mapped tables with rows: what reports join. */
  async mapped(scope: ProjectScope): Promise<LookupTable[]> {
    const rows = await selectRows<TableRow>(
      this.postgres.db,
      pgSql`select ${COLUMNS} from lookup_tables where ${scope} and mapped_source is not null and version > 0 order by id`,
    );
    return rows.map(toTable);
  }

  async create(scope: ProjectScope, name: string, mappedTo: LookupMapping | undefined): Promise<string> {
    const [row] = await selectRows<{ id: string }>(
      this.postgres.db,
      pgSql`insert into lookup_tables (project_id, name, mapped_source, mapped_property)
        values (${scope.projectId}, ${name}, ${mappedTo?.source ?? null}, ${mappedTo?.property ?? null})
        returning id::text as id`,
    );
    return row.id;
  }

  /** False when the project has no such table. `mappedTo: null` removes the mapping. */
  async update(
    scope: ProjectScope,
    id: string,
    changes: { name?: string; mappedTo?: LookupMapping | null },
  ): Promise<boolean> {
    const sets = [pgSql`updated_at = now()`];
    if (changes.name !== undefined) sets.push(pgSql`name = ${changes.name}`);
    if (changes.mappedTo !== undefined)
      sets.push(
        pgSql`mapped_source = ${changes.mappedTo?.source ?? null}, mapped_property = ${changes.mappedTo?.property ?? null}`,
      );
    const rows = await selectRows<{ id: string }>(
      this.postgres.db,
      pgSql`update lookup_tables set ${sql.join(sets, sql`, `)} where ${scope} and id = ${id}::uuid returning id::text as id`,
    );
    return rows.length > 0;
  }

  /** Removes the table and every version of its rows; false when the project has no such table. */
  async delete(scope: ProjectScope, id: string): Promise<boolean> {
    const rows = await selectRows<{ id: string }>(
      this.postgres.db,
      pgSql`delete from lookup_tables where ${scope} and id = ${id}::uuid returning id::text as id`,
    );
    if (rows.length === 0) return false;
    await this.command(deleteTableRowsSql(this.ddl, scope, id));
    return true;
  }

  /** A version of the table's rows no other replace holds; undefined when the project has no such table. */
  async reserveVersion(scope: ProjectScope, id: string): Promise<number | undefined> {
    const [row] = await selectRows<{ version: number | string }>(
      this.postgres.db,
      pgSql`update lookup_tables set reserved_version = greatest(reserved_version, version) + 1
        where ${scope} and id = ${id}::uuid returning reserved_version as version`,
    );
    return row && Number(row.version);
  }

  async insertRows(scope: ProjectScope, version: TableVersion, rows: readonly LookupRow[]): Promise<void> {
    await insertFormatted(this.clickhouse, {
      table: LOOKUP_TABLE_ROWS_TABLE,
      format: 'JSONEachRow',
      rows: lookupRowLines(scope, version, rows),
    });
  }

  /**
   * Makes `version` the table's current rows, unless a later replace already switched past it; the
   * version it replaced when it did (0 for none), undefined when it did not.
   */
  async switchVersion(
    scope: ProjectScope,
    version: TableVersion,
    columns: readonly string[],
    rowCount: number,
  ): Promise<number | undefined> {
    const [row] = await selectRows<{ previous: number | string }>(
      this.postgres.db,
      pgSql`update lookup_tables t set version = ${version.version}, columns = ${JSON.stringify(columns)}::jsonb,
          row_count = ${rowCount}, updated_at = now()
        from (select id, version as previous from lookup_tables where ${scope} and id = ${version.tableId}::uuid for update) p
        where t.id = p.id and t.version < ${version.version}
        returning p.previous`,
    );
    return row && Number(row.previous);
  }

  /** Deletes the table's row versions older than `before`. */
  async deleteVersionsBefore(scope: ProjectScope, tableId: string, before: number): Promise<void> {
    await this.command(deleteOlderVersionsSql(this.ddl, scope, tableId, before));
  }

  private async command(query: { sql: string; params: Record<string, unknown> }): Promise<void> {
    await this.clickhouse.command({
      query: query.sql,
      query_params: query.params,
      clickhouse_settings: DELETE_ON_EVERY_REPLICA_SETTINGS,
    });
  }
}
