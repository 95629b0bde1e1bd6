export type ClickHouseTarget =
  | { kind: 'chdb'; path: string }
  | { kind: 'server'; url: string; username: string; password: string; database: string };

/** `chdb:<dir>` is the in-process engine; `http(s)://user:pass@host:port/db` a server. */
export function parseClickHouseUrl(value: string): ClickHouseTarget {
  if (value.startsWith('chdb:')) {
    const path = value.slice('chdb:'.length);
    if (!path) throw new Error('CLICKHOUSE_URL chdb: needs a directory, as in chdb:./data/clickhouse');
    return { kind: 'chdb', path };
  }
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`CLICKHOUSE_URL must use http, https or chdb, not ${url.protocol}`);
  }
  const database = decodeURIComponent(url.pathname.replace(/^\/+/, '')) || 'default';
  const target = {
    kind: 'server' as const,
    username: decodeURIComponent(url.username) || 'default',
    password: decodeURIComponent(url.password),
    database,
    url: '',
  };
  url.username = '';
  url.password = '';
  url.pathname = '';
  target.url = url.toString().replace(/\/$/, '');
  return target;
}
