import { createClickHouseClient } from '@analytics/clickhouse';
import { Postgres, selectRows } from '@analytics/postgres';
import { eventually, freePort, ServiceProcess, spawnService } from '@analytics/testing';
import { sql } from 'drizzle-orm';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';

const FIXTURES = resolve(__dirname, '../fixtures/upgrade');
const GENEROUS_LIMITS = {
  QUERY_LIMIT_PER_SECOND: '1000',
  QUERY_LIMIT_PER_HOUR: '100000',
  EXPORT_LIMIT_PER_SECOND: '1000',
  EXPORT_LIMIT_PER_HOUR: '100000',
};

/** What scripts/upgrade-fixture.js seeded into a release's data directory (its JSON beside the archive). */
export interface SeededRelease {
  release: string;
  credentials: {
    projectToken: string;
    projectSecret: string;
    ownerUsername: string;
    ownerSecret: string;
    organizationId: number;
    projectId: number;
  };
  range: { from_date: string; to_date: string };
  events: { total: number; byName: Record<string, number>; ofRetrieved: number };
  identity: { mode: string; people: number; merged: Record<string, string> };
  droppedProperty: { event: string; property: string };
  profiles: Record<string, Record<string, unknown>>;
  savedReport: { id: number; name: string; params: unknown; series: unknown };
  annotation: { id: number; date: string; description: string; tags: { id: number; name: string }[] };
  schemas: { entityType: string; name: string; schemaJson: unknown }[];
  retrieval: { trackingId: string; distinctId: string };
  pipeline: { name: string; state: string; [field: string]: unknown };
}

export function seededRelease(release: string): SeededRelease {
  return JSON.parse(readFileSync(join(FIXTURES, `${release}.json`), 'utf8')) as SeededRelease;
}

/** Unpacks the release's data directory into `into`; returns the DATA_DIR. */
export function unpackRelease(release: string, into: string): string {
  const tarball = brotliDecompressSync(readFileSync(join(FIXTURES, `${release}.tar.br`)));
  execFileSync('tar', ['-xf', '-', '-C', into], { input: tarball });
  return join(into, 'data');
}

/** The current standalone (built by global setup) on `dataDir`, ready to answer. */
export async function startStandalone(dataDir: string): Promise<{ service: ServiceProcess; base: string }> {
  const port = await freePort();
  const service = spawnService('standalone', {
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    SHUTDOWN_TIMEOUT_MS: '60000',
    // Many reads in a few seconds: far above the API's per-project query and export limits.
    ...GENEROUS_LIMITS,
  });
  const base = `http://127.0.0.1:${port}`;
  const ready = eventually(async () => expect((await fetch(`${base}/readyz`)).status).toBe(200), {
    timeoutMs: 120_000,
    intervalMs: 250,
  });
  const exited = service.exited.then((code) => {
    throw new Error(`The standalone exited with ${code} before it was ready:\n${service.output()}`);
  });
  try {
    await Promise.race([ready, exited]);
  } catch (error) {
    await service.stop();
    throw error;
  }
  return { service, base };
}

/** The versions each engine's schema_migrations holds (the process that owned the directory has stopped). */
export async function ledgers(dataDir: string): Promise<{ postgres: number[]; clickhouse: number[] }> {
  const postgres = await Postgres.connect(`pglite:${join(dataDir, 'postgres')}`);
  const clickhouse = createClickHouseClient(`chdb:${join(dataDir, 'clickhouse')}`);
  try {
    const pgRows = await selectRows<{ version: number }>(
      postgres.db,
      sql`select version from schema_migrations order by version`,
    );
    const chRows = await (
      await clickhouse.query({
        query: 'SELECT DISTINCT version FROM schema_migrations ORDER BY version',
        format: 'JSONEachRow',
      })
    ).json<{ version: number }>();
    return { postgres: pgRows.map((r) => Number(r.version)), clickhouse: chRows.map((r) => Number(r.version)) };
  } finally {
    await clickhouse.close();
    await postgres.close();
  }
}

/** Records `version` as applied in the Postgres ledger, as a newer release would have. */
export async function recordPostgresVersion(dataDir: string, version: number): Promise<void> {
  const postgres = await Postgres.connect(`pglite:${join(dataDir, 'postgres')}`);
  try {
    await postgres.db.execute(
      sql`insert into schema_migrations (version, name) values (${version}, 'from_the_future')`,
    );
  } finally {
    await postgres.close();
  }
}

/** A client of one running service: Basic credentials, JSON or NDJSON answers, the status kept. */
export function apiClient(base: string) {
  const basic = (user: string, password = '') => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  async function call(
    method: string,
    path: string,
    auth: string | undefined,
    body?: { json?: unknown; form?: Record<string, string> },
  ): Promise<{ status: number; text: string; json: () => any }> {
    const headers: Record<string, string> = auth ? { authorization: auth } : {};
    let payload: string | undefined;
    if (body?.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(body.form).toString();
    } else if (body?.json !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body.json);
    }
    const response = await fetch(`${base}${path}`, { method, headers, body: payload });
    const text = await response.text();
    return { status: response.status, text, json: () => JSON.parse(text) };
  }
  return { call, basic };
}
