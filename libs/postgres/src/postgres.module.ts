import { AppConfig } from '@analytics/config';
import { Global, Module, OnApplicationShutdown } from '@nestjs/common';
import { Postgres } from './postgres';
import { PostgresMigrator } from './postgres-migrator';

/** One Postgres connection (pool or PGlite) per process, from DATABASE_URL. */
@Global()
@Module({
  providers: [
    { provide: Postgres, useFactory: (config: AppConfig) => Postgres.connect(config.databaseUrl), inject: [AppConfig] },
    PostgresMigrator,
  ],
  exports: [Postgres, PostgresMigrator],
})
export class PostgresModule implements OnApplicationShutdown {
  constructor(private readonly postgres: Postgres) {}

  async onApplicationShutdown(): Promise<void> {
    await this.postgres.close();
  }
}
