import { ServiceAccountsService } from '@analytics/accounts';
import { ClickHouseClient } from '@analytics/clickhouse';
import { AppConfig } from '@analytics/config';
import { IngestModule } from '@analytics/ingest';
import { ProjectsModule, ProjectsService } from '@analytics/projects';
import { ProfilesQueryModule, QueryModule } from '@analytics/query';
import { SavedReportsModule } from '@analytics/reports';
import { PlatformModule } from '@analytics/runtime';
import { engineNeeds, intakeOf } from '@analytics/service-map';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';
import { DynamicModule } from '@nestjs/common';
import { LookupTablesModule } from '../src';

function root(config: AppConfig): DynamicModule {
  return {
    module: class LookupTableReadersTestModule {},
    imports: [
      PlatformModule.forRoot(config, engineNeeds(config, ['ingest', 'query', 'management'])),
      ProjectsModule,
      IngestModule.forRoot(intakeOf(config)),
      LookupTablesModule,
      SavedReportsModule,
      QueryModule,
      ProfilesQueryModule,
    ],
  };
}

const basic = (user: string, password = '') => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const at = (iso: string) => Date.parse(iso) / 1000;
const POP = 'properties["song_id"]["genre"] == "Pop"';
/** What POP selects, written without the table: Pop is song c994bb only. */
const POP_BY_ID = 'properties["song_id"] == "c994bb"';

/**
 * Every reader filters (and where it segments, segments) by a looked-up column: each report with a
 * lookup is compared with the same report filtered by the key values the lookup selects.
 */
describe('lookup tables in every report', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  let projectId: number;
  let admin: string;

  const json = async (path: string, init: RequestInit = {}, status = 200) => {
    const response = await fetch(`${service.baseUrl}${path}`, {
      ...init,
      headers: { Authorization: admin, 'Content-Type': 'application/json', ...init.headers },
    });
    const body = (await response.json()) as any;
    expect({ path, status: response.status, body }).toMatchObject({ status });
    return body;
  };
  const query = (path: string, parameters: Record<string, string>) =>
    json(`${path}?${new URLSearchParams({ project_id: String(projectId), ...parameters })}`);
  const app = (path: string) => `/api/app/projects/${projectId}${path}`;
  const table = async (name: string, mapped_to: object, csv: string) => {
    const created = await json(
      app('/lookup-tables'),
      { method: 'POST', body: JSON.stringify({ name, mapped_to }) },
      201,
    );
    await json(`/lookup-tables/${created.results.id}?project_id=${projectId}`, {
      method: 'PUT',
      body: csv,
      headers: { 'Content-Type': 'text/csv' },
    });
  };

  beforeAll(async () => {
    environment = await createTestEnvironment({
      env: { QUERY_LIMIT_PER_SECOND: '1000', QUERY_LIMIT_PER_HOUR: '100000' },
    });
    service = await startTestApp(root, environment.config);
    const projects = service.app.get(ProjectsService);
    const organization = await projects.createOrganization('Readers');
    const created = await projects.createProject(organization.id, 'Player');
    projectId = created.project.id;
    const { view, secret } = await service.app.get(ServiceAccountsService).create(organization.id, null, {
      username: 'reader-admin',
      role: 'admin',
      projects: [{ id: projectId, role: 'admin' }],
    });
    admin = basic(view.account.username, secret);
    const events = [
      ['Song Played', '2024-03-04T10:00:00Z', 'u1', { song_id: 'c994bb' }],
      ['Purchased', '2024-03-04T10:30:00Z', 'u1', { song_id: 'c994bb', amount: 3 }],
      ['Song Played', '2024-03-04T11:00:00Z', 'u2', { song_id: 'd8d949' }],
      ['Purchased', '2024-03-05T11:30:00Z', 'u2', { song_id: 'd8d949', amount: 2 }],
      ['Song Played', '2024-03-04T12:00:00Z', 'u3', { song_id: 'c994bb' }],
      ['Song Played', '2024-03-05T09:00:00Z', 'u3', { song_id: 'c994bb' }],
      ['Purchased', '2024-03-05T09:30:00Z', 'u3', { song_id: 'a43fb8', amount: 5 }],
    ].map(([event, time, user, properties], i) => ({
      event,
      properties: { time: at(time as string), distinct_id: user, $insert_id: `r${i}`, ...(properties as object) },
    }));
    await json(`/import?strict=1&project_id=${projectId}`, { method: 'POST', body: JSON.stringify(events) });
    const profile = (id: string, properties: object) => ({
      project_id: projectId,
      group_key: '',
      profile_id: id,
      properties: JSON.stringify(properties),
      version: 1,
      is_deleted: 0,
      created_at: '2024-03-01 00:00:00.000',
      updated_at: '2024-03-01 00:00:00.000',
    });
    await service.app.get<ClickHouseClient>(ClickHouseClient).insert({
      table: 'profiles',
      values: [profile('u1', { plan_id: 'p1' }), profile('u2', { plan_id: 'p2' }), profile('u3', { plan_id: 'p1' })],
      format: 'JSONEachRow',
    });
    await table(
      'Songs',
      { source: 'event', property: 'song_id' },
      'id,genre\nc994bb,Pop\nd8d949,Flamenco\na43fb8,House\n',
    );
    await table('Plans', { source: 'profile', property: 'plan_id' }, 'id,tier,seats\np1,paid,10\np2,free,1\n');
  });
  afterAll(async () => {
    await service?.close();
    await environment?.dispose();
  });

  const range = { from_date: '2024-03-04', to_date: '2024-03-05' };

  it('insights: a metric filtered, and a breakdown, by a looked-up column', async () => {
    const insights = (params: object) => query('/api/query/insights', { params: JSON.stringify(params) });
    const params = (where: string) => ({
      events: [{ event: 'Song Played', math: 'total', where }],
      ...range,
      unit: 'day',
    });
    const byLookup = await insights(params(POP));
    expect(byLookup.series).toEqual((await insights(params(POP_BY_ID))).series);
    expect(Object.values(byLookup.series['Song Played'])).toEqual([2, 1]);
    const broken = await insights({
      ...params(''),
      events: [{ event: 'Song Played', math: 'total' }],
      on: 'properties["song_id"]["genre"]',
    });
    expect(JSON.stringify(broken.series)).toMatch(/Pop/);
    expect(JSON.stringify(broken.series)).toMatch(/Flamenco/);
  });

  it('funnels: steps, filters and the breakdown read the table', async () => {
    const saved = await json(
      app('/funnels'),
      {
        method: 'POST',
        body: JSON.stringify({
          name: 'Play to purchase',
          steps: [{ event: 'Song Played', where: POP }, { event: 'Purchased' }],
          length: 2,
          length_unit: 'day',
        }),
      },
      201,
    );
    const funnel = (parameters: Record<string, string> = {}) =>
      query('/api/query/funnels', { funnel_id: String(saved.results.funnel_id), ...range, ...parameters });
    const viaLookup = await funnel({ where: 'properties["song_id"]["genre"] != "House"' });
    const viaIds = await funnel({ where: 'properties["song_id"] != "a43fb8"' });
    expect(viaLookup).toEqual(viaIds);
    const byGenre = await funnel({ on: 'properties["song_id"]["genre"]' });
    expect(JSON.stringify(byGenre)).toMatch(/Pop/);
  });

  it('retention and addiction: born_where and where read the table', async () => {
    const retention = (where: string) =>
      query('/api/query/retention', {
        ...range,
        born_event: 'Song Played',
        event: 'Purchased',
        born_where: where,
        interval_count: '2',
      });
    expect(await retention(POP)).toEqual(await retention(POP_BY_ID));
    const addiction = (where: string) =>
      query('/api/query/retention/addiction', {
        ...range,
        unit: 'day',
        addiction_unit: 'hour',
        event: 'Song Played',
        where,
      });
    expect(await addiction(POP)).toEqual(await addiction(POP_BY_ID));
  });

  it('flows: the anchor filter reads the table', async () => {
    const flows = (where: string) => query('/api/query/flows', { ...range, event: 'Song Played', where });
    const viaLookup = await flows(POP);
    expect(viaLookup).toEqual(await flows(POP_BY_ID));
  });

  it('segmentation sums and numeric buckets read the table', async () => {
    const sum = (where: string) =>
      query('/api/query/segmentation/sum', { ...range, event: 'Purchased', on: 'properties["amount"]', where });
    const viaLookup = await sum('properties["song_id"]["genre"] in ["Pop", "House"]');
    expect(viaLookup.results).toEqual((await sum('properties["song_id"] in ["c994bb", "a43fb8"]')).results);
    expect(Object.values(viaLookup.results)).toEqual([3, 5]);
  });

  it('the profile query and profile cohorts read a table mapped to a profile property', async () => {
    const engage = await query('/api/query/engage', { where: 'properties["plan_id"]["tier"] == "paid"' });
    expect(engage.results.map((r: { $distinct_id: string }) => r.$distinct_id).sort()).toEqual(['u1', 'u3']);
    const seats = await query('/api/query/engage', { where: 'user["plan_id"]["seats"] < 5' });
    expect(seats.results.map((r: { $distinct_id: string }) => r.$distinct_id)).toEqual(['u2']);
    const cohort = async (definition: object) => {
      const created = await json(
        app('/cohorts'),
        { method: 'POST', body: JSON.stringify({ name: 'c', definition }) },
        201,
      );
      const list = (await query('/api/query/cohorts/list', {})) as { id: number; count: number }[];
      return list.find((c) => c.id === created.results.id)?.count;
    };
    expect(await cohort({ where: 'properties["plan_id"]["tier"] == "paid"' })).toBe(2);
    const behavior = { event: 'Song Played', min_count: 2, last_days: 3650, where: POP };
    expect(await cohort({ behavior })).toBe(1);
  });
});
