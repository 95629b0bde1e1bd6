import { ClickHouseClient, ClickHouseClientConfigOptions, createClient } from '@clickhouse/client';
import { lockDirectory } from '@analytics/directory-lock';
import { createChdbConnection } from 'chdb/connection';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseClickHouseUrl } from './clickhouse-url';

function openChdb(path: string): ClickHouseClient {
  const directory = resolve(path);
  const unlock = lockDirectory(directory);
  try {
    mkdirSync(directory, { recursive: true });
    // chDB types the connection against its own copy of @clickhouse/client-common; the contract is the same.
    const connection = createChdbConnection({ path: directory }) as unknown as ClickHouseClientConfigOptions['connection'];
    const client = createClient({ connection });
    const close = client.close.bind(client);
    client.close = async () => {
      await close();
      unlock();
    };
    return client;
  } catch (error) {
    unlock();
    throw error;
  }
}

/** `chdb:<dir>` opens the engine in-process (one process per directory); a URL connects to a server. */
export function createClickHouseClient(clickhouseUrl: string): ClickHouseClient {
  const target = parseClickHouseUrl(clickhouseUrl);
  if (target.kind === 'chdb') return openChdb(target.path);
  return createClient({
    url: target.url,
    username: target.username,
    password: target.password,
    database: target.database,
  });
}
