import { ClickHouseClient } from '@analytics/clickhouse';
import { AppConfig } from '@analytics/config';
import { IngestModule } from '@analytics/ingest';
import { ProjectsModule } from '@analytics/projects';
import { PlatformModule } from '@analytics/runtime';
import { engineNeeds, intakeOf } from '@analytics/service-map';
import { TestApp } from '@analytics/testing';
import { DynamicModule } from '@nestjs/common';
import { ExportModule } from '../src';

/** The ingestion and export routes in one app, as the export's end-to-end tests drive them. */
export function ingestAndExport(config: AppConfig): DynamicModule {
  return {
    module: class ExportTestModule {},
    imports: [
      PlatformModule.forRoot(config, engineNeeds(config, ['ingest', 'export'])),
      ProjectsModule,
      IngestModule.forRoot(intakeOf(config)),
      ExportModule,
    ],
  };
}

/** How many export queries the engine is running now (their SQL names mp_processing_time_ms). */
export async function runningExportQueries(service: TestApp): Promise<number> {
  const result = await service.app.get(ClickHouseClient).query({
    query:
      "SELECT count() AS n FROM system.processes WHERE query LIKE '%mp_processing_time_ms%' AND query NOT LIKE '%system.processes%'",
    format: 'JSONEachRow',
  });
  return (await result.json<{ n: number }>())[0].n;
}
