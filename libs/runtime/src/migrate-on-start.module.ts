import { ClickHouseMigrator } from '@analytics/clickhouse';
import { AppConfig } from '@analytics/config';
import { PostgresMigrator } from '@analytics/postgres';
import { Logger, Module, OnModuleInit, Optional } from '@nestjs/common';
import { CLICKHOUSE_MIGRATIONS } from './clickhouse-migrations';
import { SchemaReadiness } from './schema-readiness';

/**
 * Applies pending migrations of the engines this process uses, in onModuleInit, so that they run
 * before any consumer or job starts (those start in onApplicationBootstrap) and before the port opens;
 * with MIGRATE_ON_START=false (the cluster's Job migrates), readiness waits for the schema instead.
 */
@Module({ providers: [SchemaReadiness] })
export class MigrateOnStartModule implements OnModuleInit {
  private readonly logger = new Logger('Migrations');

  constructor(
    private readonly config: AppConfig,
    @Optional() private readonly clickhouse?: ClickHouseMigrator,
    @Optional() private readonly postgres?: PostgresMigrator,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.migrateOnStart) return;
    for (const migrate of [() => this.postgres?.migrate(), () => this.clickhouse?.migrate(CLICKHOUSE_MIGRATIONS)]) {
      const report = await migrate();
      if (report?.applied.length) this.logger.log(`${report.engine}: applied ${report.applied.join(', ')}`);
    }
  }
}
