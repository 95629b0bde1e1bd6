import { Client, ClientConfig, escapeIdentifier } from 'pg';
import { TableParams } from './import-definition';
import { SourceRow } from './row-mapping';
import { parsePostgresConnection } from './warehouse-source';

/** One page of a source: rows with watermark < order column <= `watermark`, in that order. */
export interface SourcePage {
  rows: SourceRow[];
  /** The order column's value of the last row, as the source renders it (text); undefined for an empty page. */
  watermark: string | undefined;
}

export interface PageRequest {
  table: TableParams;
  orderColumn: string;
  /** Rows strictly after this value; none: from the start. */
  after: string | undefined;
  pageSize: number;
}

/** A connection to one warehouse for one run. */
export interface WarehouseReader {
  readPage(request: PageRequest): Promise<SourcePage>;
  close(): Promise<void>;
}

/** A source whose kind has no connector here: answers why at run time (the real product's cloud warehouses). */
export class NoConnectorError extends Error {
  constructor(type: string) {
    super(`no connector is installed for ${type} sources: this installation reads Postgres warehouses only; the source is stored, but its imports cannot run`);
  }
}

function clientConfig(connection: Record<string, unknown>): ClientConfig {
  const parsed = parsePostgresConnection(connection);
  const base: ClientConfig = parsed.url
    ? { connectionString: parsed.url }
    : { host: parsed.host, port: parsed.port ?? 5432, database: parsed.database, user: parsed.user, password: parsed.password };
  if (parsed.sslmode && parsed.sslmode !== 'disable' && parsed.sslmode !== 'allow' && parsed.sslmode !== 'prefer') {
    base.ssl = { rejectUnauthorized: parsed.sslmode !== 'require' };
  }
  return { ...base, connectionTimeoutMillis: 10_000, statement_timeout: 300_000, application_name: 'analytics-warehouse-import' };
}

const sourceSql = (table: TableParams) =>
  'query' in table ? `(${table.query}) as warehouse_source` : table.schema ? `${escapeIdentifier(table.schema)}.${escapeIdentifier(table.table_name)}` : escapeIdentifier(table.table_name);

/** Reads a Postgres database; every page in a read-only snapshot, so its bound and its rows agree. */
export class PostgresReader implements WarehouseReader {
  private constructor(private readonly client: Client) {}

  /** Connects (and proves it with a query): the driver's error says why it could not. */
  static async connect(connection: Record<string, unknown>): Promise<PostgresReader> {
    const client = new Client(clientConfig(connection));
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query("set time zone 'UTC'");
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    return new PostgresReader(client);
  }

  async readPage({ table, orderColumn, after, pageSize }: PageRequest): Promise<SourcePage> {
    const source = sourceSql(table);
    const column = escapeIdentifier(orderColumn);
    const afterSql = after === undefined ? '' : ` and ${column} > $1`;
    const params = after === undefined ? [] : [after];
    await this.client.query('begin isolation level repeatable read read only');
    try {
      // The page ends at the pageSize-th value; every row with that same value joins it, so the
      // watermark never splits rows that share an insert time.
      const bound = await this.client.query<{ w: string | null }>(
        `select ${column}::text as w from ${source} where ${column} is not null${afterSql} order by ${column} offset ${pageSize - 1} limit 1`,
        params,
      );
      const last = bound.rows[0]?.w ?? (await this.client.query<{ w: string | null }>(`select max(${column})::text as w from ${source} where ${column} is not null${afterSql}`, params)).rows[0]?.w;
      if (last === null || last === undefined) {
        await this.client.query('commit');
        return { rows: [], watermark: undefined };
      }
      const rows = await this.client.query<SourceRow>(
        `select * from ${source} where ${column} is not null${afterSql} and ${column} <= $${params.length + 1} order by ${column}`,
        [...params, last],
      );
      await this.client.query('commit');
      return { rows: rows.rows, watermark: last };
    } catch (error) {
      await this.client.query('rollback').catch(() => undefined);
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }
}

/** The reader for a source's type; the cloud warehouses have no connector here. */
export async function openReader(type: string, connection: Record<string, unknown>): Promise<WarehouseReader> {
  if (type !== 'postgres') throw new NoConnectorError(type);
  return PostgresReader.connect(connection);
}
