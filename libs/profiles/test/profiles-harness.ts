import { ClickHouseClient } from '@analytics/clickhouse';
import { AppConfig, loadConfig, ServiceName } from '@analytics/config';
import { ProfilesRepository } from '@analytics/profile-store';
import { Properties } from '@analytics/profile-updates';
import { ProjectsModule, ProjectsService } from '@analytics/projects';
import { PlatformModule } from '@analytics/runtime';
import { engineNeeds, intakeOf, servicesModule } from '@analytics/service-map';
import { projectScope } from '@analytics/tenancy';
import {
  createTestEnvironment,
  startTestApp,
  TestApp,
  TestEnvironment,
  TestEnvironmentOptions,
} from '@analytics/testing';
import { DynamicModule } from '@nestjs/common';
import { ProfilesQueryModule } from '@analytics/query';
import { GroupKeysModule, ProfilesIngestModule, ProfilesWriterModule } from '../src';

const SERVICES: ServiceName[] = ['ingest', 'writer', 'query', 'management'];

export interface TestProject {
  id: number;
  token: string;
  secret: string;
  basic: string;
}

export interface QueryAnswer {
  status: number;
  body: {
    page: number;
    page_size: number;
    session_id: string;
    status: string;
    total: number;
    results: { $distinct_id: string; $properties: Properties }[];
    error?: string;
  };
}

export interface MirrorRow {
  profile_id: string;
  version: number;
  is_deleted: number;
  properties: string;
}

export interface ProfilesHarness {
  app: TestApp;
  environment: TestEnvironment;
  project: TestProject;
  createProject(name?: string): Promise<TestProject>;
  /** POSTs `data=<JSON>` as the Python SDK does; returns the status and the body text. */
  send(endpoint: 'engage' | 'groups', records: unknown, query?: string): Promise<{ status: number; text: string }>;
  /** The profile query with the project secret, as form fields. */
  query(fields: Record<string, string>, project?: TestProject): Promise<QueryAnswer>;
  defineGroupKey(name: string, project?: TestProject): Promise<Response>;
  /** The Postgres truth: identity → properties. */
  stored(profileIds: string[], groupKey?: string, project?: TestProject): Promise<Map<string, Properties>>;
  /** Every mirror row of these profiles (no FINAL: old versions and tombstones too), by version. */
  mirrorRows(profileIds: string[], groupKey?: string, project?: TestProject): Promise<MirrorRow[]>;
  close(): Promise<void>;
}

/** The profile modules of the services' rows; with `events`, all the services' modules (event intake and writers, identity merge). */
function profilesApp(events: boolean) {
  return (config: AppConfig): DynamicModule => ({
    module: class ProfilesTestModule {},
    imports: [
      PlatformModule.forRoot(config, engineNeeds(config, SERVICES)),
      ProjectsModule,
      ...(events
        ? [servicesModule(config, SERVICES)]
        : [
            ProfilesIngestModule.forRoot(intakeOf(config)),
            ...(config.kafka ? [ProfilesWriterModule] : []),
            ProfilesQueryModule,
            GroupKeysModule,
          ]),
    ],
  });
}

/**
 * Tests poll the profile query far faster than the query API's quota allows (3 a second, 60 an
 * hour, 5 at once per project); the quota is tested apart, and a test's own environment wins.
 */
const POLLING_LIMITS = {
  QUERY_LIMIT_PER_HOUR: '1000000',
  QUERY_LIMIT_PER_SECOND: '100000',
  QUERY_LIMIT_CONCURRENT: '1000',
};

/** The profile services of one process (gateway, writer, query, management) on fresh engines, with a project. */
export async function startProfilesHarness(
  options: TestEnvironmentOptions = {},
  existing?: TestEnvironment,
  mount: { events?: boolean } = {},
): Promise<ProfilesHarness> {
  const environment = existing ?? (await createTestEnvironment(options));
  const app = await startTestApp(
    profilesApp(mount.events ?? false),
    loadConfig({ ...POLLING_LIMITS, ...environment.env }),
  );
  const projects = app.app.get(ProjectsService);
  const clickhouse = app.app.get(ClickHouseClient);
  const organization = await projects.createOrganization('Test');
  const createProject = async (name = 'Test'): Promise<TestProject> => {
    const { project, secret } = await projects.createProject(organization.id, name);
    return {
      id: project.id,
      token: project.token,
      secret,
      basic: `Basic ${Buffer.from(`${secret}:`).toString('base64')}`,
    };
  };
  const project = await createProject();
  return {
    app,
    environment,
    project,
    createProject,
    async send(endpoint, records, query = '') {
      const response = await fetch(`${app.baseUrl}/${endpoint}${query ? `?${query}` : ''}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ data: JSON.stringify(records) }).toString(),
      });
      return { status: response.status, text: await response.text() };
    },
    async query(fields, on = project) {
      const response = await fetch(`${app.baseUrl}/api/query/engage?project_id=${on.id}`, {
        method: 'POST',
        headers: { Authorization: on.basic, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
      return { status: response.status, body: (await response.json()) as QueryAnswer['body'] };
    },
    defineGroupKey: (name, on = project) =>
      fetch(`${app.baseUrl}/api/app/projects/${on.id}/group-keys`, {
        method: 'POST',
        headers: { Authorization: on.basic, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name }),
      }),
    async stored(profileIds, groupKey = '', on = project) {
      const rows = await app.app.get(ProfilesRepository).find(projectScope(on.id), groupKey, profileIds);
      return new Map(rows.map((row) => [row.profileId, row.properties]));
    },
    async mirrorRows(profileIds, groupKey = '', on = project) {
      const result = await clickhouse.query({
        query:
          'SELECT profile_id, version, is_deleted, properties FROM profiles ' +
          'WHERE project_id = {project:UInt32} AND group_key = {groupKey:String} AND profile_id IN {ids:Array(String)} ORDER BY profile_id, version',
        query_params: { project: on.id, groupKey, ids: profileIds },
        format: 'JSONEachRow',
      });
      return result.json<MirrorRow>();
    },
    async close() {
      await app.close();
      if (!existing) await environment.dispose();
    },
  };
}

/** The profile query's answer for these profiles, as identity → properties. */
export async function queried(
  harness: ProfilesHarness,
  profileIds: string[],
  extra: Record<string, string> = {},
  project?: TestProject,
): Promise<Map<string, Properties>> {
  const { status, body } = await harness.query({ distinct_ids: JSON.stringify(profileIds), ...extra }, project);
  if (status !== 200) throw new Error(`profile query answered ${status}: ${JSON.stringify(body)}`);
  return new Map(body.results.map((r) => [r.$distinct_id, r.$properties]));
}
