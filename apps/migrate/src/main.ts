// First: on an unsupported Node, one line and exit 1 before anything else loads.
import '@analytics/supported-node';
import 'reflect-metadata';
import { ClickHouseModule, ClickHouseMigrator } from '@analytics/clickhouse';
import { AppConfig, ConfigModule } from '@analytics/config';
import { PostgresModule, PostgresMigrator } from '@analytics/postgres';
import { AccountsModule } from '@analytics/accounts';
import { ClockModule } from '@analytics/clock';
import { CLICKHOUSE_MIGRATIONS, firstStart, loadConfigOrExit, schemaLag, waitForSchema } from '@analytics/runtime';
import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

/** `--wait` reads the ledgers this often. */
const WAIT_INTERVAL_MS = 2_000;

/** Applies pending migrations of both engines and, on empty storage, creates the first organization, project and owner. */
async function migrate(app: INestApplicationContext, config: AppConfig): Promise<void> {
  for (const run of [
    () => app.get(PostgresMigrator).migrate(),
    () => app.get(ClickHouseMigrator).migrate(CLICKHOUSE_MIGRATIONS),
  ]) {
    const report = await run();
    const applied = report.applied.length ? `applied ${report.applied.join(', ')}` : 'up to date';
    process.stdout.write(`${report.engine}: ${applied} (${report.alreadyApplied} already applied)\n`);
  }
  // A new cluster's first Job also creates the first organization, project and owner account.
  const welcome = await firstStart(app, config);
  if (welcome) process.stdout.write(`${welcome}\n`);
}

/**
 * `npm run migrate` and the Kubernetes migration Job: apply pending migrations, then exit.
 * `migrate --wait` applies nothing: it exits 0 once both ledgers hold this build's latest migration
 * (an init container of every Deployment runs it), 1 after MIGRATE_WAIT_TIMEOUT_MS.
 */
async function main(argv: string[]): Promise<void> {
  const config = loadConfigOrExit();
  const wait = argv.includes('--wait');

  @Module({
    imports: [
      ConfigModule.forRoot(config),
      PostgresModule,
      ClickHouseModule,
      ...(wait ? [] : [ClockModule, AccountsModule]),
    ],
  })
  class MigrateModule {}

  const app = await NestFactory.createApplicationContext(MigrateModule, { logger: ['error', 'warn'] });
  try {
    if (!wait) return await migrate(app, config);
    const read = () => schemaLag(app.get(PostgresMigrator), app.get(ClickHouseMigrator));
    await waitForSchema(read, { timeoutMs: config.migrateWaitTimeoutMs, intervalMs: WAIT_INTERVAL_MS });
    process.stdout.write("Postgres and ClickHouse hold this build's migrations\n");
  } finally {
    await app.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const wait = process.argv.includes('--wait');
  process.stderr.write(`${wait ? 'Waiting for migrations failed' : 'Migration failed'}: ${(error as Error).message}\n`);
  process.exit(1);
});
