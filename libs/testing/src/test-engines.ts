import { createClient } from '@clickhouse/client';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

export interface TestResource {
  url: string;
  dispose(): Promise<void>;
}

export type PostgresKind = 'server' | 'pglite';

const uniqueName = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

export function temporaryDirectory(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** The Postgres server global setup found (or was given), if any. */
export function postgresServerAvailable(): boolean {
  return Boolean(process.env.TEST_POSTGRES_ADMIN_URL);
}

/** A new, empty database on the server `adminUrl` reaches; `dispose` drops it, connections and all. */
export async function createPostgresDatabase(adminUrl: string, name: string): Promise<TestResource> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a safe database name: ${name}`);
  const run = async (statement: string) => {
    const client = new Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), dispose: () => run(`drop database if exists ${name} with (force)`) };
}

/** A fresh, empty database for one test file: on the server when there is one, otherwise PGlite. */
export async function createTestDatabase(
  kind: PostgresKind = postgresServerAvailable() ? 'server' : 'pglite',
): Promise<TestResource> {
  if (kind === 'pglite') {
    const dir = temporaryDirectory('test-pglite');
    return { url: `pglite:${join(dir.path, 'postgres')}`, dispose: async () => dir.remove() };
  }
  const admin = process.env.TEST_POSTGRES_ADMIN_URL;
  if (!admin) throw new Error('No Postgres server for tests: set DATABASE_URL or run one on 127.0.0.1:5432');
  return createPostgresDatabase(admin, uniqueName('test'));
}

/** A fresh ClickHouse for one test file: a new database on the server when given, otherwise a chDB directory. */
export async function createTestClickHouse(): Promise<TestResource> {
  const admin = process.env.TEST_CLICKHOUSE_ADMIN_URL;
  if (!admin) {
    const dir = temporaryDirectory('test-chdb');
    return { url: `chdb:${join(dir.path, 'clickhouse')}`, dispose: async () => dir.remove() };
  }
  const name = uniqueName('test');
  const client = createClient({ url: admin });
  await client.command({ query: `CREATE DATABASE ${name}` });
  await client.close();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async dispose() {
      const c = createClient({ url: admin });
      await c.command({ query: `DROP DATABASE IF EXISTS ${name}` });
      await c.close();
    },
  };
}

/** The broker global setup started (or was given). */
export function testKafkaBrokers(): string {
  const brokers = process.env.TEST_KAFKA_BROKERS;
  if (!brokers) throw new Error('No Kafka broker for tests: global setup did not provide TEST_KAFKA_BROKERS');
  return brokers;
}

/** Topic names unique to one test file, so files sharing the broker never see each other's messages. */
export function uniqueTopicPrefix(): string {
  return `${uniqueName('t')}.`;
}
