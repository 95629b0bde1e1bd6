import { Postgres, selectRows } from '@analytics/postgres';
import { pgSql, ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { Pipeline, PipelineDefinition, PipelineState } from './pipeline-definition';

interface PipelineRow {
  id: number;
  project_id: number;
  name: string;
  type: Pipeline['type'];
  trial: boolean;
  schema_type: Pipeline['schemaType'];
  data_source: Pipeline['dataSource'];
  frequency: Pipeline['frequency'];
  data_format: Pipeline['dataFormat'];
  sync: boolean;
  from_date: string | Date;
  to_date: string | Date | null;
  destination: Pipeline['destination'];
  warehouse: Pipeline['warehouse'] | null;
  state: PipelineState;
  created_at: string | Date;
}

const day = (value: string | Date) =>
  typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10);

const toPipeline = (row: PipelineRow): Pipeline => ({
  id: row.id,
  projectId: row.project_id,
  name: row.name,
  type: row.type,
  trial: row.trial,
  schemaType: row.schema_type,
  dataSource: row.data_source,
  frequency: row.frequency,
  dataFormat: row.data_format,
  sync: row.sync,
  fromDate: day(row.from_date),
  toDate: row.to_date === null ? undefined : day(row.to_date),
  destination: row.destination,
  warehouse: row.warehouse ?? undefined,
  state: row.state,
  createdAt: new Date(row.created_at),
});

/** Rolls the transaction back when one of its names is taken. */
class NameTaken extends Error {
  constructor(readonly pipelineName: string) {
    super(`a live pipeline is named ${pipelineName}`);
  }
}

const COLUMNS = sql.raw(
  'id, project_id, name, type, trial, schema_type, data_source, frequency, data_format, sync, from_date::text as from_date, to_date::text as to_date, destination, warehouse, state, created_at',
);

/** Pipeline definitions; every query a caller makes takes the project's scope (the workers' go by id). */
@Injectable()
export class PipelinesRepository {
  constructor(private readonly postgres: Postgres) {}

  /**
   * The new pipelines, all or none (a trial creates two): `taken` names the first whose name a live
   * pipeline of the project already has.
   */
  async insertAll(
    scope: ProjectScope,
    definitions: PipelineDefinition[],
    secretSealed: string | undefined,
    createdAt: Date,
  ): Promise<{ pipelines: Pipeline[] } | { taken: string }> {
    const pipelines: Pipeline[] = [];
    try {
      await this.postgres.db.transaction(async (tx) => {
        for (const d of definitions) {
          const [row] = await selectRows<PipelineRow>(
            tx,
            sql`insert into pipelines (project_id, name, type, trial, schema_type, data_source, frequency, data_format, sync, from_date, to_date, destination, secret_sealed, warehouse, created_at)
                values (${scope.projectId}, ${d.name}, ${d.type}, ${d.trial}, ${d.schemaType}, ${d.dataSource}, ${d.frequency}, ${d.dataFormat}, ${d.sync},
                        ${d.fromDate}::date, ${d.toDate ?? null}::date, ${JSON.stringify(d.destination)}::jsonb, ${secretSealed ?? null},
                        ${d.warehouse ? JSON.stringify(d.warehouse) : null}::jsonb, ${createdAt.toISOString()})
                on conflict (project_id, name) where state <> 'cancelled' do nothing
                returning ${COLUMNS}`,
          );
          if (!row) throw new NameTaken(d.name);
          pipelines.push(toPipeline(row));
        }
      });
    } catch (error) {
      if (error instanceof NameTaken) return { taken: error.pipelineName };
      throw error;
    }
    return { pipelines };
  }

  async list(scope: ProjectScope): Promise<Pipeline[]> {
    const rows = await selectRows<PipelineRow>(
      this.postgres.db,
      pgSql`select ${COLUMNS} from pipelines where ${scope} and state <> 'cancelled' order by id`,
    );
    return rows.map(toPipeline);
  }

  /** The live pipeline of that name. */
  async find(scope: ProjectScope, name: string): Promise<Pipeline | undefined> {
    const [row] = await selectRows<PipelineRow>(
      this.postgres.db,
      pgSql`select ${COLUMNS} from pipelines where ${scope} and name = ${name} and state <> 'cancelled'`,
    );
    return row && toPipeline(row);
  }

  /** The pipeline with its sealed destination secret, for the worker only. */
  async forWorker(id: number): Promise<{ pipeline: Pipeline; sealedSecret?: string } | undefined> {
    const [row] = await selectRows<PipelineRow & { secret_sealed: string | null }>(
      this.postgres.db,
      sql`select ${COLUMNS}, secret_sealed from pipelines where id = ${id}`,
    );
    return row && { pipeline: toPipeline(row), sealedSecret: row.secret_sealed ?? undefined };
  }

  /** Pipelines the scheduler looks at: every active one. */
  async active(): Promise<Pipeline[]> {
    const rows = await selectRows<PipelineRow>(
      this.postgres.db,
      sql`select ${COLUMNS} from pipelines where state = 'active' order by id`,
    );
    return rows.map(toPipeline);
  }

  /** Moves the pipeline from one of `from` to `to`; false when it was in none of them. */
  async setState(id: number, from: readonly PipelineState[], to: PipelineState): Promise<boolean> {
    const rows = await selectRows<{ id: number }>(
      this.postgres.db,
      sql`update pipelines set state = ${to}, updated_at = now() where id = ${id} and state in (${sql.join(
        from.map((s) => sql`${s}`),
        sql`, `,
      )}) returning id`,
    );
    return rows.length > 0;
  }
}
