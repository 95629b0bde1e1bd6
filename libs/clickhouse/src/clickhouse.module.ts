import { ClickHouseClient } from '@clickhouse/client';
import { AppConfig } from '@analytics/config';
import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { ClickHouseDdl } from './clickhouse-ddl';
import { createClickHouseClient } from './create-clickhouse-client';
import { ClickHouseMigrator } from './clickhouse-migrator';

/** One ClickHouse client per process, from CLICKHOUSE_URL (a server, or chDB in-process). */
@Global()
@Module({
  providers: [
    {
      provide: ClickHouseClient,
      useFactory: (config: AppConfig) => createClickHouseClient(config.clickhouseUrl),
      inject: [AppConfig],
    },
    {
      provide: ClickHouseDdl,
      useFactory: (config: AppConfig) => new ClickHouseDdl(config.clickhouseCluster),
      inject: [AppConfig],
    },
    ClickHouseMigrator,
  ],
  exports: [ClickHouseClient, ClickHouseDdl, ClickHouseMigrator],
})
export class ClickHouseModule implements OnApplicationShutdown {
  constructor(@Inject(ClickHouseClient) private readonly client: ClickHouseClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }
}
