import { AccountBootstrapService } from '@analytics/accounts';
import { ClickHouseClient } from '@analytics/clickhouse';
import { ManualClock } from '@analytics/clock';
import { AppConfig } from '@analytics/config';
import { EventsConsumerModule } from '@analytics/event-writer';
import { JobsModule } from '@analytics/jobs';
import { ProfilesWriterModule } from '@analytics/profiles';
import { Postgres, selectRows } from '@analytics/postgres';
import { ProjectBootstrapService, ProjectsService } from '@analytics/projects';
import { PlatformModule } from '@analytics/runtime';
import { engineNeeds, intakeOf, servicesModule } from '@analytics/service-map';
import {
  createPostgresDatabase,
  createTestEnvironment,
  startTestApp,
  TestApp,
  TestEnvironment,
  TestResource,
} from '@analytics/testing';
import { DynamicModule } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { WarehouseImportsWorkerModule } from '../src';
import { ImportRunner } from '../src/import-runner';
import { WarehouseImportsWorker } from '../src/warehouse-imports.worker';

export const basic = (user: string, password = '') => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

export interface Answer {
  status: number;
  body: any;
}

/**
 * The gateway, query and management rows from the service map (management mounts the imports API),
 * plus the worker with a ManualClock, small pages and no minute schedule: tests call `tick()` and
 * `run()` themselves. The warehouse is a database of its own on the Postgres server.
 */
export class WarehouseHarness {
  private constructor(
    readonly clock: ManualClock,
    readonly environment: TestEnvironment,
    readonly app: TestApp,
    readonly warehouse: TestResource,
    readonly owner: string,
    readonly organizationId: number,
  ) {}

  /** `kafka`: the intake produces to the real broker and the writers consume, as in a cluster. */
  static async start(pageSize = 3, options: { kafka?: boolean } = {}): Promise<WarehouseHarness> {
    const admin = process.env.TEST_POSTGRES_ADMIN_URL;
    if (!admin) throw new Error('these tests need the Postgres server at 127.0.0.1:5432 as the warehouse');
    const environment = await createTestEnvironment({
      postgres: 'server',
      kafka: options.kafka,
      env: {
        BOOTSTRAP_SERVICE_ACCOUNT_USERNAME: 'owner',
        BOOTSTRAP_SERVICE_ACCOUNT_SECRET: 'owner-secret-000000001',
        // The warehouse is the Postgres server on loopback, which the default outbound policy refuses.
        OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8',
      },
    });
    const clock = new ManualClock(Date.now());
    const services = ['ingest', 'query', 'management'] as const;
    const root = (config: AppConfig): DynamicModule => ({
      module: class WarehouseImportsTestModule {},
      imports: [
        PlatformModule.forRoot(config, engineNeeds(config, [...services, 'writer'])),
        servicesModule(config, [...services]),
        // The writer row's consumers, without its worker (this one has test settings).
        ...(config.kafka ? [EventsConsumerModule, ProfilesWriterModule] : []),
        JobsModule.forRoot({ pollingIntervalSeconds: 0.5 }),
        WarehouseImportsWorkerModule.forRoot(intakeOf(config), {
          clock,
          pageSize,
          schedule: false,
          pollingIntervalSeconds: 0.5,
        }),
      ],
    });
    const app = await startTestApp(root, environment.config);
    const created = (await app.app.get(ProjectBootstrapService).ensureDefaultProject())!;
    await app.app.get(AccountBootstrapService).ensureOwner(created.organization.id);
    const warehouse = await createPostgresDatabase(admin, `warehouse_${randomBytes(5).toString('hex')}`);
    return new WarehouseHarness(
      clock,
      environment,
      app,
      warehouse,
      basic('owner', 'owner-secret-000000001'),
      created.organization.id,
    );
  }

  async close(): Promise<void> {
    await this.app.close();
    await this.warehouse.dispose();
    await this.environment.dispose();
  }

  get runner(): ImportRunner {
    return this.app.app.get(ImportRunner, { strict: false });
  }

  get worker(): WarehouseImportsWorker {
    return this.app.app.get(WarehouseImportsWorker, { strict: false });
  }

  async project(name: string): Promise<{ id: number; token: string; secret: string }> {
    const { project, secret } = await this.app.app.get(ProjectsService).createProject(this.organizationId, name);
    return { id: project.id, token: project.token, secret };
  }

  async call(method: string, path: string, body?: unknown, authorization = this.owner): Promise<Answer> {
    const response = await fetch(`${this.app.baseUrl}${path}`, {
      method,
      headers: { Authorization: authorization, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  /** SQL on the warehouse database. */
  async warehouseSql(statement: string, params: unknown[] = []): Promise<void> {
    const client = new Client({ connectionString: this.warehouse.url });
    await client.connect();
    try {
      await client.query(statement, params);
    } finally {
      await client.end();
    }
  }

  /** The connection of the warehouse as a source body takes it. */
  get connection(): Record<string, unknown> {
    const url = new URL(this.warehouse.url);
    return {
      host: url.hostname,
      port: Number(url.port || 5432),
      database: url.pathname.slice(1),
      user: decodeURIComponent(url.username) || 'postgres',
      password: 'not-needed-under-trust',
    };
  }

  /** Events an import brought, as queries read them (deduplicated) and as stored (every copy). */
  async importedEvents(
    projectId: number,
    importId: number | string,
  ): Promise<{ visible: number; stored: number; insertIds: number }> {
    const result = await this.app.app.get(ClickHouseClient).query({
      query: `SELECT (SELECT count() FROM events FINAL WHERE project_id = {p:UInt32} AND JSONExtractString(properties, '$warehouse_import_id') = {i:String}) AS visible,
        (SELECT count() FROM events WHERE project_id = {p:UInt32} AND JSONExtractString(properties, '$warehouse_import_id') = {i:String}) AS stored,
        (SELECT uniqExact(insert_id) FROM events WHERE project_id = {p:UInt32} AND JSONExtractString(properties, '$warehouse_import_id') = {i:String}) AS insertIds`,
      query_params: { p: projectId, i: String(importId) },
      format: 'JSONEachRow',
    });
    const [row] = await result.json<Record<string, string>>();
    return { visible: Number(row.visible), stored: Number(row.stored), insertIds: Number(row.insertIds) };
  }

  async events(
    projectId: number,
  ): Promise<{ event: string; distinct_id: string; properties: Record<string, unknown> }[]> {
    const result = await this.app.app.get(ClickHouseClient).query({
      query:
        'SELECT event, distinct_id, properties FROM events FINAL WHERE project_id = {p:UInt32} ORDER BY time, insert_id',
      query_params: { p: projectId },
      format: 'JSONEachRow',
    });
    return (await result.json<{ event: string; distinct_id: string; properties: string }>()).map((row) => ({
      ...row,
      properties: JSON.parse(row.properties),
    }));
  }

  async profiles(projectId: number, groupKey = ''): Promise<Record<string, Record<string, unknown>>> {
    const rows = await selectRows<{ profile_id: string; properties: Record<string, unknown> | string }>(
      this.app.app.get(Postgres).db,
      sql`select profile_id, properties from profiles where project_id = ${projectId} and group_key = ${groupKey} order by profile_id`,
    );
    return Object.fromEntries(
      rows.map((row) => [
        row.profile_id,
        typeof row.properties === 'string' ? JSON.parse(row.properties) : row.properties,
      ]),
    );
  }

  async storedSource(id: number): Promise<Record<string, unknown>> {
    const [row] = await selectRows<Record<string, unknown>>(
      this.app.app.get(Postgres).db,
      sql`select * from warehouse_sources where id = ${id}`,
    );
    return row;
  }
}
