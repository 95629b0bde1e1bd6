import { invalid } from './warehouse-imports-error';

/** The relational database we connect to, and the real product's four cloud warehouses (stored; no connector yet). */
export const SOURCE_TYPES = ['postgres', 'bigquery', 'snowflake', 'redshift', 'databricks'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'] as const;
/** Connection fields that may be shown back; everything else (password, url, keys) is sealed only. */
const PUBLIC_FIELDS = [
  'host',
  'port',
  'database',
  'user',
  'sslmode',
  'project_id',
  'dataset',
  'account',
  'warehouse',
  'workspace',
  'region',
];

export interface PostgresConnection {
  url?: string;
  host?: string;
  port?: number;
  database?: string;
  user?: string;
  password?: string;
  sslmode?: (typeof SSL_MODES)[number];
}

export interface SourceDefinition {
  name: string;
  type: SourceType;
  /** The whole connection as given (sealed before it is stored). */
  connection: Record<string, unknown>;
  /** What the API shows: no password, no URL, no key. */
  connectionPublic: Record<string, unknown>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const optionalString = (value: unknown, field: string) => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > 1024) throw invalid(`connection.${field} must be a string`);
  return value;
};

/** The body of `POST …/warehouse-sources`, checked. */
export function parseSourceDefinition(body: unknown): SourceDefinition {
  if (!isObject(body)) throw invalid('the body must be a JSON object');
  const { name, type, connection } = body;
  if (typeof name !== 'string' || !name.trim() || name.length > 255)
    throw invalid('name is required: a string of at most 255 characters');
  if (!SOURCE_TYPES.includes(type as SourceType)) throw invalid(`type must be one of ${SOURCE_TYPES.join(', ')}`);
  if (!isObject(connection)) throw invalid('connection is required: an object');
  if (type === 'postgres') parsePostgresConnection(connection);
  const connectionPublic = Object.fromEntries(
    Object.entries(connection).filter(([key]) => PUBLIC_FIELDS.includes(key)),
  );
  if (type === 'postgres' && typeof connection.url === 'string')
    Object.assign(connectionPublic, publicPartsOfUrl(connection.url));
  return { name, type: type as SourceType, connection, connectionPublic };
}

export function parsePostgresConnection(connection: Record<string, unknown>): PostgresConnection {
  const url = optionalString(connection.url, 'url');
  if (url !== undefined && !/^postgres(ql)?:\/\//.test(url)) throw invalid('connection.url must be a postgres:// URL');
  const host = optionalString(connection.host, 'host');
  if (!url && !host) throw invalid('connection needs a url, or host, database, user and password');
  const port = connection.port;
  if (port !== undefined && !(Number.isInteger(port) && (port as number) > 0 && (port as number) < 65536))
    throw invalid('connection.port must be an integer port');
  const sslmode = connection.sslmode;
  if (sslmode !== undefined && !SSL_MODES.includes(sslmode as PostgresConnection['sslmode'] & string))
    throw invalid(`connection.sslmode must be one of ${SSL_MODES.join(', ')}`);
  return {
    url,
    host,
    port: port as number | undefined,
    database: optionalString(connection.database, 'database'),
    user: optionalString(connection.user, 'user'),
    password: optionalString(connection.password, 'password'),
    sslmode: sslmode as PostgresConnection['sslmode'],
  };
}

function publicPartsOfUrl(url: string): Record<string, unknown> {
  try {
    const parsed = new URL(url);
    return {
      host: parsed.hostname,
      port: parsed.port ? Number(parsed.port) : 5432,
      database: parsed.pathname.replace(/^\//, ''),
      user: decodeURIComponent(parsed.username),
    };
  } catch {
    throw invalid('connection.url is not a valid URL');
  }
}
