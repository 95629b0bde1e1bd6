// First: on an unsupported Node, one line and exit 1 before anything else loads.
import '@analytics/supported-node';
import 'reflect-metadata';
import { ClickHouseModule, ClickHouseMigrator } from '@analytics/clickhouse';
import { ConfigModule } from '@analytics/config';
import { PostgresModule, PostgresMigrator } from '@analytics/postgres';
import { AccountsModule } from '@analytics/accounts';
import { CLICKHOUSE_MIGRATIONS, firstStart, loadConfigOrExit } from '@analytics/runtime';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

/**
 * `npm run migrate` and the Kubernetes migration Job: apply pending migrations of both engines and,
 * on empty storage, create the first organization, project and owner account; then exit.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit();

  @Module({ imports: [ConfigModule.forRoot(config), PostgresModule, ClickHouseModule, AccountsModule] })
  class MigrateModule {}

  const app = await NestFactory.createApplicationContext(MigrateModule, { logger: ['error', 'warn'] });
  try {
    for (const migrate of [
      () => app.get(PostgresMigrator).migrate(),
      () => app.get(ClickHouseMigrator).migrate(CLICKHOUSE_MIGRATIONS),
    ]) {
      const report = await migrate();
      const applied = report.applied.length ? `applied ${report.applied.join(', ')}` : 'up to date';
      process.stdout.write(`${report.engine}: ${applied} (${report.alreadyApplied} already applied)\n`);
    }
    // A new cluster's first Job also creates the first organization, project and owner account.
    const welcome = await firstStart(app, config);
    if (welcome) process.stdout.write(`${welcome}\n`);
  } finally {
    await app.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`Migration failed: ${(error as Error).message}\n`);
  process.exit(1);
});
