import { ClickHouseClient } from '@analytics/clickhouse';
import { AppConfig } from '@analytics/config';
import { IngestModule } from '@analytics/ingest';
import { ProjectsModule, ProjectsService } from '@analytics/projects';
import { PlatformModule } from '@analytics/runtime';
import { engineNeeds, intakeOf } from '@analytics/service-map';
import { eventually, TestApp } from '@analytics/testing';
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

/** The event name of {@link importLargeExport}'s events. */
export const LARGE_EXPORT_EVENTS = 'Large';

/**
 * A new project holding 120 events of about 23 MB of NDJSON on `day`: far more than the socket buffers
 * between the server and a client that reads nothing, so its export is still running while a test acts.
 * Resolves with the project's Basic authorization once every event is stored.
 */
export async function importLargeExport(service: TestApp, organization: string, day: string): Promise<string> {
  const projects = service.app.get(ProjectsService);
  const { project, secret } = await projects.createProject(
    (await projects.createOrganization(organization)).id,
    'Main',
  );
  const auth = `Basic ${Buffer.from(`${secret}:`).toString('base64')}`;
  const item = (event: number, list: number, index: number) => `${event}-${list}-${index}-`.padEnd(250, 'abcdefghij');
  const time = Date.parse(`${day}T09:00:00Z`) / 1000;
  const large = Array.from({ length: 120 }, (_, n) => ({
    event: LARGE_EXPORT_EVENTS,
    properties: {
      time: time + n,
      distinct_id: `big-${n % 7}`,
      $insert_id: `large-${n}`,
      ...Object.fromEntries(
        ['a', 'b', 'c'].map((key, list) => [key, Array.from({ length: 250 }, (_, i) => item(n, list, i))]),
      ),
    },
  }));
  for (let i = 0; i < large.length; i += 8) {
    const sent = await fetch(`${service.baseUrl}/import`, {
      method: 'POST',
      body: JSON.stringify(large.slice(i, i + 8)),
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
    });
    if (sent.status !== 200) throw new Error(`import answered ${sent.status}: ${await sent.text()}`);
  }
  const stored = async () =>
    (
      await (
        await service.app.get(ClickHouseClient).query({
          query: `SELECT count() AS n FROM events WHERE project_id = ${project.id} AND event = '${LARGE_EXPORT_EVENTS}'`,
          format: 'JSONEachRow',
        })
      ).json<{ n: number }>()
    )[0].n;
  await eventually(async () => expect(await stored()).toBeGreaterThanOrEqual(large.length), {
    timeoutMs: 90_000,
    intervalMs: 500,
  });
  return auth;
}
