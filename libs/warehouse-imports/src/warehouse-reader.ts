import { OutboundPolicy, OutboundRefused } from '@analytics/outbound';
import { Client, ClientConfig, escapeIdentifier } from 'pg';
import { TableParams } from './import-definition';
import { SourceRow } from './row-mapping';
import { PagePositions, SourceCursor } from './source-cursor';
import { parsePostgresConnection } from './warehouse-source';

/** One page of a source: at most `pageSize` rows after the cursor, in (insert time, key) order. */
export interface SourcePage {
  rows: SourceRow[];
  /** Undefined for an empty page. */
  positions: PagePositions | undefined;
}

/** How a source is ordered: by `orderColumn`, ties broken by `keyColumn` (none: the row's digest). */
export interface SourceOrder {
  table: TableParams;
  orderColumn: string;
  keyColumn?: string;
}

export interface PageRequest extends SourceOrder {
  after: SourceCursor | undefined;
  pageSize: number;
}

/** A connection to one warehouse for one run. */
export interface WarehouseReader {
  readPage(request: PageRequest): Promise<SourcePage>;
  /** Rows at the position's insert time with keys up to its key (the resume check of `resumeCursor`). */
  rowsUpTo(order: SourceOrder, position: { time: string; key: string }): Promise<number>;
  close(): Promise<void>;
}

/** A source whose kind has no connector here: answers why at run time (the real product's cloud warehouses). */
export class NoConnectorError extends Error {
  constructor(type: string) {
    super(
      `no connector is installed for ${type} sources: this installation reads Postgres warehouses only; the source is stored, but its imports cannot run`,
    );
  }
}

function clientConfig(connection: Record<string, unknown>): ClientConfig {
  const parsed = parsePostgresConnection(connection);
  const base: ClientConfig = parsed.url
    ? { connectionString: parsed.url }
    : {
        host: parsed.host,
        port: parsed.port ?? 5432,
        database: parsed.database,
        user: parsed.user,
        password: parsed.password,
      };
  if (parsed.sslmode && parsed.sslmode !== 'disable' && parsed.sslmode !== 'allow' && parsed.sslmode !== 'prefer') {
    base.ssl = { rejectUnauthorized: parsed.sslmode !== 'require' };
  }
  return {
    ...base,
    connectionTimeoutMillis: 10_000,
    statement_timeout: 300_000,
    application_name: 'analytics-warehouse-import',
  };
}

/** The alias of the source's rows; a name no user column is likely to have, since a column would shadow it. */
const ROW = '__analytics_source_row';
/** Columns the reader adds to each row for its position, removed before the row is mapped. */
const TIME = '__analytics_insert_time';
const KEY = '__analytics_row_key';

const sourceSql = (table: TableParams) =>
  'query' in table
    ? `(${table.query}) as ${ROW}`
    : `${table.schema ? `${escapeIdentifier(table.schema)}.` : ''}${escapeIdentifier(table.table_name)} as ${ROW}`;

/** The tiebreak: the named column, else the table's single-column primary key, else a digest of the whole row. */
const keySql = (keyColumn: string | undefined) => (keyColumn ? escapeIdentifier(keyColumn) : `md5(${ROW}::text)`);

/** Reads a Postgres database; every page in a read-only transaction (a `query` source is the user's SQL). */
export class PostgresReader implements WarehouseReader {
  private readonly primaryKeys = new Map<string, string | undefined>();

  private constructor(private readonly client: Client) {}

  /** Connects (and proves it with a query): the driver's error says why it could not. */
  static async connect(connection: Record<string, unknown>, outbound: OutboundPolicy): Promise<PostgresReader> {
    const client = new Client(clientConfig(connection));
    client.on('error', () => undefined);
    // The host the driver will dial, once it has read the URL and its parameters; checked at every connection.
    if (client.host.startsWith('/'))
      throw new OutboundRefused('connection.host: a Unix socket is not a network address; give a host name or address');
    await outbound.check(client.host, 'connection.host');
    try {
      await client.connect();
      await client.query("set time zone 'UTC'");
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    return new PostgresReader(client);
  }

  /** A table's primary key when it is one column: an indexed, unique, non-null tiebreak. */
  private async primaryKey(table: TableParams): Promise<string | undefined> {
    if ('query' in table) return undefined;
    const name = `${table.schema ? `${escapeIdentifier(table.schema)}.` : ''}${escapeIdentifier(table.table_name)}`;
    if (!this.primaryKeys.has(name)) {
      const found = await this.client.query<{ column: string }>(
        `select a.attname as column from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
          where i.indrelid = to_regclass($1) and i.indisprimary`,
        [name],
      );
      this.primaryKeys.set(name, found.rows.length === 1 ? found.rows[0].column : undefined);
    }
    return this.primaryKeys.get(name);
  }

  private async readOnly<T>(work: () => Promise<T>): Promise<T> {
    await this.client.query('begin isolation level repeatable read read only');
    try {
      const result = await work();
      await this.client.query('commit');
      return result;
    } catch (error) {
      await this.client.query('rollback').catch(() => undefined);
      throw error;
    }
  }

  async readPage({ table, orderColumn, keyColumn, after, pageSize }: PageRequest): Promise<SourcePage> {
    const time = escapeIdentifier(orderColumn);
    const key = keySql(keyColumn ?? (await this.primaryKey(table)));
    // Keyset on (time, key): a page holds at most pageSize rows however many share an insert time.
    const bound = !after
      ? ''
      : after.key === undefined
        ? ` and ${time} >= $1`
        : ` and ${time} >= $1 and (${time}, ${key}) > ($1, $2)`;
    const params = !after ? [] : after.key === undefined ? [after.time] : [after.time, after.key];
    const result = await this.readOnly(() =>
      this.client.query<SourceRow>(
        `select ${ROW}.*, ${time}::text as ${TIME}, ${key}::text as ${KEY} from ${sourceSql(table)}
          where ${time} is not null and ${key} is not null${bound} order by ${time}, ${key} limit $${params.length + 1}`,
        [...params, pageSize],
      ),
    );
    if (!result.rows.length) return { rows: [], positions: undefined };
    const last = result.rows[result.rows.length - 1];
    const lastTime = String(last[TIME]);
    const positions = {
      last: { time: lastTime, key: String(last[KEY]) },
      rowsAtLastTime: result.rows.filter((row) => row[TIME] === lastTime).length,
    };
    const rows = result.rows.map(({ [TIME]: _time, [KEY]: _key, ...row }) => row);
    return { rows, positions };
  }

  async rowsUpTo(
    { table, orderColumn, keyColumn }: SourceOrder,
    position: { time: string; key: string },
  ): Promise<number> {
    const time = escapeIdentifier(orderColumn);
    const key = keySql(keyColumn ?? (await this.primaryKey(table)));
    const result = await this.readOnly(() =>
      this.client.query<{ rows: string }>(
        `select count(*) as rows from ${sourceSql(table)} where ${time} = $1 and ${key} <= $2`,
        [position.time, position.key],
      ),
    );
    return Number(result.rows[0].rows);
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }
}
