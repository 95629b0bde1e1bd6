import { AccountBootstrapService, OAuthTokensService, ServiceAccountsService } from '@analytics/accounts';
import { ClickHouseClient } from '@analytics/clickhouse';
import { AppConfig, ServiceName } from '@analytics/config';
import { Postgres, selectRows } from '@analytics/postgres';
import { ProjectBootstrapService, ProjectsService } from '@analytics/projects';
import { PlatformModule } from '@analytics/runtime';
import { engineNeeds, jobsModule, servicesModule } from '@analytics/service-map';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';
import { DynamicModule } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { ComplianceModule } from '../src';
import { ComplianceSettings } from '../src/compliance-settings';

export interface TestProject {
  id: number;
  token: string;
  secret: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** Every service but compliance from the map, and compliance with test timing (a short grace, fast polling). */
function root(settings: Partial<ComplianceSettings>, services: ServiceName[]) {
  return (config: AppConfig): DynamicModule => ({
    module: class ComplianceTestModule {},
    imports: [
      PlatformModule.forRoot(config, engineNeeds(config, [...services, 'compliance'])),
      servicesModule(config, services),
      // The process's one job queue (the rows beside compliance may mount it too: the same object).
      jobsModule(config),
      ComplianceModule.forRoot(settings),
    ],
  });
}

/** The platform on fresh engines, an organization with an owner's OAuth token, and helpers to ingest and to call the API. */
export class ComplianceHarness {
  private projectCount = 0;

  private constructor(
    readonly environment: TestEnvironment,
    readonly app: TestApp,
    readonly organizationId: number,
    readonly ownerBasic: string,
  ) {}

  /** `services`: the others mounted beside compliance (without `writer` and with Kafka, nothing writes what the gateway acknowledged). */
  static async start(
    settings: Partial<ComplianceSettings> = {},
    options: { kafka?: boolean; services?: ServiceName[]; env?: Record<string, string> } = {},
  ): Promise<ComplianceHarness> {
    const environment = await createTestEnvironment({
      kafka: options.kafka,
      env: {
        BOOTSTRAP_SERVICE_ACCOUNT_USERNAME: 'owner',
        BOOTSTRAP_SERVICE_ACCOUNT_SECRET: 'owner-secret-000000001',
        ...options.env,
      },
    });
    const services = options.services ?? ['ingest', 'writer', 'query', 'export', 'management'];
    const app = await startTestApp(
      root({ startAfterSeconds: 2, pollingIntervalSeconds: 0.5, retryLimit: 0, ...settings }, services),
      environment.config,
    );
    const created = (await app.app.get(ProjectBootstrapService).ensureDefaultProject())!;
    await app.app.get(AccountBootstrapService).ensureOwner(created.organization.id);
    return new ComplianceHarness(environment, app, created.organization.id, basic('owner', 'owner-secret-000000001'));
  }

  async close(): Promise<void> {
    await this.app.close();
    await this.environment.dispose();
  }

  async project(organizationId = this.organizationId): Promise<TestProject> {
    this.projectCount += 1;
    const { project, secret } = await this.app.app
      .get(ProjectsService)
      .createProject(organizationId, `p${this.projectCount}`);
    return { id: project.id, token: project.token, secret };
  }

  /** An OAuth token issued through the API to a service account with this organization role. */
  async oauthToken(
    organizationId: number,
    role: 'owner' | 'admin' | 'consumer' = 'owner',
    projects: { id: number; role: 'owner' | 'admin' | 'analyst' | 'consumer' }[] = [],
  ): Promise<string> {
    const { view, secret } = await this.app.app
      .get(ServiceAccountsService)
      .create(organizationId, null, { username: `sa-${role}`, role, projects });
    // Only admins may issue tokens through the API; a consumer's comes from the service.
    if (role === 'consumer') return (await this.app.app.get(OAuthTokensService).issue(view.account, 3600)).token;
    const issued = await this.call('POST', `/api/app/organizations/${organizationId}/oauth-tokens`, {
      authorization: basic(view.account.username, secret),
      body: { expires_in: 3600 },
    });
    if (issued.status !== 201) throw new Error(`oauth token: ${issued.status} ${JSON.stringify(issued.body)}`);
    return issued.body.results.token as string;
  }

  async call(
    method: string,
    path: string,
    options: { authorization?: string; body?: unknown; form?: Record<string, string> } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (options.authorization) headers.Authorization = options.authorization;
    let body: string | undefined;
    if (options.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    } else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const response = await fetch(`${this.app.baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  }

  async import(project: TestProject, events: object[]): Promise<void> {
    const response = await fetch(`${this.app.baseUrl}/import?strict=1`, {
      method: 'POST',
      headers: { Authorization: basic(project.secret), 'Content-Type': 'application/json' },
      body: JSON.stringify(events),
    });
    if (response.status !== 200) throw new Error(`import: ${response.status} ${await response.text()}`);
  }

  async engage(project: TestProject, distinctId: string, set: Record<string, unknown>): Promise<void> {
    const response = await fetch(`${this.app.baseUrl}/engage?verbose=1`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        data: JSON.stringify([{ $token: project.token, $distinct_id: distinctId, $set: set }]),
      }).toString(),
    });
    const answer = await response.text();
    if (response.status !== 200 || !answer.includes('"status":1'))
      throw new Error(`engage: ${response.status} ${answer}`);
  }

  /** Stored events of these ids (every copy, no FINAL), as insert ids. */
  async eventIds(project: TestProject, distinctIds: string[]): Promise<string[]> {
    const result = await this.app.app.get(ClickHouseClient).query({
      query:
        'SELECT insert_id FROM events WHERE project_id = {p:UInt32} AND distinct_id IN {ids:Array(String)} ORDER BY insert_id',
      query_params: { p: project.id, ids: distinctIds },
      format: 'JSONEachRow',
    });
    return (await result.json<{ insert_id: string }>()).map((row) => row.insert_id);
  }

  /** User profiles of these ids: in Postgres, and every row of the ClickHouse mirror. */
  async profileRows(project: TestProject, distinctIds: string[]): Promise<{ postgres: number; mirror: number }> {
    const [pg] = await selectRows<{ n: string }>(
      this.app.app.get(Postgres).db,
      sql`select count(*) as n from profiles where project_id = ${project.id} and group_key = '' and profile_id in (select jsonb_array_elements_text(${JSON.stringify(distinctIds)}::jsonb))`,
    );
    const result = await this.app.app.get(ClickHouseClient).query({
      query:
        "SELECT count() AS n FROM profiles WHERE project_id = {p:UInt32} AND group_key = '' AND profile_id IN {ids:Array(String)}",
      query_params: { p: project.id, ids: distinctIds },
      format: 'JSONEachRow',
    });
    const [mirror] = await result.json<{ n: string }>();
    return { postgres: Number(pg.n), mirror: Number(mirror.n) };
  }
}

export const basic = (user: string, password = '') => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
export const bearer = (token: string) => `Bearer ${token}`;
export const nowSeconds = () => Math.floor(Date.now() / 1000);

export function event(
  distinctId: string,
  insertId: string,
  properties: Record<string, unknown> = {},
  name = 'Played',
  time = nowSeconds() - 60,
): object {
  return { event: name, properties: { time, distinct_id: distinctId, $insert_id: insertId, ...properties } };
}
