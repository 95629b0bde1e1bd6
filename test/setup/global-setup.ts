import { execFileSync } from 'node:child_process';
import { Client } from 'pg';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startClickHouseEngine } from '../../bench/support/clickhouse-engine';
import { ensureChromium } from './chromium';
import { startContainerEngines } from './container-engines';
import { registerTeardown } from './teardown-registry';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const kafkaScript = require('../../scripts/kafka.js') as {
  startKafka(options: { port: number; dataDir: string }): Promise<{ brokers: string; stop(): Promise<void> }>;
  findFreePort(): Promise<number>;
};

const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';

async function reachable(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Provides the engines for every test worker through TEST_* variables (workers inherit the
 * environment): the ones named by KAFKA_BROKERS / DATABASE_URL / CLICKHOUSE_URL when set; otherwise a
 * Kafka broker started here, the Postgres server on 127.0.0.1:5432 when reachable (else PGlite) and
 * chDB, or with TEST_CLICKHOUSE=stand-in chDB behind ClickHouse's HTTP interface (`npm run
 * test:clickhouse-server`). With TEST_ENGINES=containers, testcontainers starts all three (needs Docker).
 */
export default async function globalSetup(): Promise<void> {
  ensureChromium();
  // End-to-end tests run the built apps as their own processes, exactly as `npm start` does (and
  // TEST_CLICKHOUSE=stand-in the benches' ClickHouse stand-in).
  execFileSync(
    process.execPath,
    [require.resolve('@swc/cli/bin/swc.js'), 'apps', 'libs', 'bench', '-d', 'dist', '--quiet'],
    { stdio: 'inherit' },
  );
  // …and the web console they serve at / (docs/console.md), as `npm run build` does.
  const root = join(__dirname, '../..');
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', '-c', join(root, 'web/console/vite.config.mts')],
    { stdio: 'inherit' },
  );

  if (process.env.TEST_ENGINES === 'containers') {
    const engines = await startContainerEngines();
    Object.assign(process.env, engines.env);
    registerTeardown(engines.stop);
    return;
  }

  if (process.env.KAFKA_BROKERS) {
    process.env.TEST_KAFKA_BROKERS = process.env.KAFKA_BROKERS;
  } else {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'test-kafka-')), 'data');
    const broker = await kafkaScript.startKafka({ port: await kafkaScript.findFreePort(), dataDir });
    process.env.TEST_KAFKA_BROKERS = broker.brokers;
    registerTeardown(() => broker.stop());
  }

  const postgres = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : LOCAL_POSTGRES;
  if (await reachable(postgres)) process.env.TEST_POSTGRES_ADMIN_URL = postgres;

  if (process.env.CLICKHOUSE_URL?.startsWith('http'))
    process.env.TEST_CLICKHOUSE_ADMIN_URL = process.env.CLICKHOUSE_URL;
  else if (process.env.TEST_CLICKHOUSE === 'stand-in') {
    // The path production takes (HTTP to a server) where no ClickHouse server can run: chDB behind
    // ClickHouse's HTTP interface, in a process of its own (bench/support/clickhouse-server.ts).
    const directory = mkdtempSync(join(tmpdir(), 'test-clickhouse-'));
    const engine = await startClickHouseEngine('server', 'clickhouse stand-in', join(directory, 'data'));
    process.env.TEST_CLICKHOUSE_ADMIN_URL = new URL(engine.url).origin;
    registerTeardown(async () => {
      await engine.process?.stop(10_000);
      rmSync(directory, { recursive: true, force: true });
    });
  }
}
