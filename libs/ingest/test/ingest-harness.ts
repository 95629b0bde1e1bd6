import { ClickHouseClient } from '@analytics/clickhouse';
import { ProjectsService } from '@analytics/projects';
import {
  createTestEnvironment,
  startTestApp,
  TestApp,
  TestEnvironment,
  TestEnvironmentOptions,
} from '@analytics/testing';
import { PlatformModule } from '@analytics/runtime';
import { engineNeeds, intakeOf } from '@analytics/service-map';
import { AppConfig } from '@analytics/config';
import { EventsConsumerModule } from '@analytics/event-writer';
import { IdentitiesConsumerModule } from '@analytics/identity';
import { ProjectsModule } from '@analytics/projects';
import { DynamicModule } from '@nestjs/common';
import { IngestModule } from '../src';

export interface StoredEvent {
  event: string;
  time_ms: number;
  distinct_id: string;
  insert_id: string;
  properties: string;
  processed_ms: number;
}

export interface IngestHarness {
  app: TestApp;
  environment: TestEnvironment;
  project: { id: number; token: string; secret: string };
  basic: string;
  post(path: string, body: string | Buffer, headers?: Record<string, string>): Promise<Response>;
  stored(where?: string): Promise<StoredEvent[]>;
  close(): Promise<void>;
}

function gatewayAndWriter(config: AppConfig): DynamicModule {
  return {
    module: class IngestTestModule {},
    imports: [
      PlatformModule.forRoot(config, engineNeeds(config, ['ingest', 'writer'])),
      ProjectsModule,
      IngestModule.forRoot(intakeOf(config)),
      ...(config.kafka ? [EventsConsumerModule, IdentitiesConsumerModule] : []),
    ],
  };
}

/** A gateway (and, with Kafka, a writer) on fresh engines, with one project to ingest into. */
export async function startIngestHarness(options: TestEnvironmentOptions = {}): Promise<IngestHarness> {
  const environment = await createTestEnvironment(options);
  const app = await startTestApp(gatewayAndWriter, environment.config);
  const projects = app.app.get(ProjectsService);
  const organization = await projects.createOrganization('Test');
  const { project, secret } = await projects.createProject(organization.id, 'Test');
  const clickhouse = app.app.get(ClickHouseClient);
  return {
    app,
    environment,
    project: { id: project.id, token: project.token, secret },
    basic: `Basic ${Buffer.from(`${secret}:`).toString('base64')}`,
    post: (path, body, headers = {}) => fetch(`${app.baseUrl}${path}`, { method: 'POST', body, headers }),
    async stored(where = '1') {
      const result = await clickhouse.query({
        query:
          'SELECT event, toUnixTimestamp64Milli(time) AS time_ms, distinct_id, insert_id, properties, toUnixTimestamp64Milli(processed_at) AS processed_ms ' +
          `FROM events FINAL WHERE project_id = {project:UInt32} AND (${where}) ORDER BY time, insert_id`,
        query_params: { project: project.id },
        format: 'JSONEachRow',
      });
      return result.json<StoredEvent>();
    },
    async close() {
      await app.close();
      await environment.dispose();
    },
  };
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export function importEvent(n: number, extra: Record<string, unknown> = {}, name = 'Played'): object {
  return {
    event: name,
    properties: { time: nowSeconds() - 100, distinct_id: `user-${n % 7}`, $insert_id: `ins-${n}`, n, ...extra },
  };
}
