import { Postgres, selectRows } from '@analytics/postgres';
import { pgSql, ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { ImportDefinition } from './import-definition';
import { SourceDefinition } from './warehouse-source';
import {
  ImportRun,
  IMPORT_COLUMNS,
  Row,
  StoredImport,
  StoredSource,
  toImport,
  toRun,
  toSource,
} from './warehouse-imports.rows';

export { ImportRun, RunStatus, StoredImport, StoredSource } from './warehouse-imports.rows';

/** Sources, imports and their runs; API reads take the project's scope, so one project never sees another's. */
@Injectable()
export class WarehouseImportsRepository {
  constructor(private readonly postgres: Postgres) {}

  private rows(query: ReturnType<typeof sql>) {
    return selectRows<Row>(this.postgres.db, query);
  }

  async createSource(scope: ProjectScope, source: SourceDefinition, sealed: string): Promise<StoredSource> {
    const [row] = await this
      .rows(sql`insert into warehouse_sources (project_id, name, type, connection_public, connection_sealed)
      values (${scope.projectId}, ${source.name}, ${source.type}, ${JSON.stringify(source.connectionPublic)}::jsonb, ${sealed}) returning *`);
    return toSource(row);
  }

  async listSources(scope: ProjectScope): Promise<StoredSource[]> {
    return (await this.rows(pgSql`select * from warehouse_sources where ${scope} order by id`)).map(toSource);
  }

  async source(scope: ProjectScope, id: number): Promise<StoredSource | undefined> {
    const [row] = await this.rows(pgSql`select * from warehouse_sources where ${scope} and id = ${id}`);
    return row && toSource(row);
  }

  /** False when imports still read from it. */
  async deleteSource(scope: ProjectScope, id: number): Promise<boolean> {
    const [used] = await this.rows(sql`select 1 from warehouse_imports where source_id = ${id} limit 1`);
    if (used) return false;
    await this.postgres.db.execute(pgSql`delete from warehouse_sources where ${scope} and id = ${id}`);
    return true;
  }

  async createImport(scope: ProjectScope, definition: ImportDefinition): Promise<number> {
    const mapping = JSON.stringify({ table_params: definition.tableParams, columns: definition.mapping });
    const [row] = await this
      .rows(sql`insert into warehouse_imports (project_id, source_id, kind, name, mapping, sync_mode, run_every)
      values (${scope.projectId}, ${definition.sourceId}, ${definition.kind}, ${definition.name}, ${mapping}::jsonb, ${definition.syncMode}, ${definition.runEveryNs})
      returning id`);
    return Number(row.id);
  }

  /** Imports being deleted are gone for the API. */
  async listImports(scope: ProjectScope): Promise<StoredImport[]> {
    return (
      await this.rows(
        pgSql`select ${IMPORT_COLUMNS} from warehouse_imports i where ${scope} and not deleting order by id`,
      )
    ).map(toImport);
  }

  async import(scope: ProjectScope, id: number): Promise<StoredImport | undefined> {
    const [row] = await this.rows(
      pgSql`select ${IMPORT_COLUMNS} from warehouse_imports i where ${scope} and id = ${id} and not deleting`,
    );
    return row && toImport(row);
  }

  /** A changed schedule starts afresh: due at once (hourly, daily, weekly counted from that run). */
  async updateImport(
    scope: ProjectScope,
    id: number,
    paused: boolean,
    runEveryNs: number | undefined,
  ): Promise<boolean> {
    const result = await this.rows(pgSql`update warehouse_imports set paused = ${paused},
        run_every = coalesce(${runEveryNs ?? null}::bigint, run_every),
        next_run_at = case when ${runEveryNs ?? null}::bigint is distinct from null and ${runEveryNs ?? null}::bigint <> run_every then null else next_run_at end
      where ${scope} and id = ${id} and not deleting returning id`);
    return result.length > 0;
  }

  async markDeleting(scope: ProjectScope, id: number, deleteData: boolean): Promise<boolean> {
    const result = await this
      .rows(pgSql`update warehouse_imports set deleting = true, paused = true, delete_data = ${deleteData}
      where ${scope} and id = ${id} and not deleting returning id`);
    return result.length > 0;
  }

  async requestManualSync(scope: ProjectScope, id: number): Promise<void> {
    await this.postgres.db.execute(
      pgSql`update warehouse_imports set manual_requested = true where ${scope} and id = ${id}`,
    );
  }

  async history(importId: number, limit: number): Promise<ImportRun[]> {
    return (
      await this.rows(
        sql`select * from warehouse_import_runs where import_id = ${importId} order by id desc limit ${limit}`,
      )
    ).map(toRun);
  }
}
