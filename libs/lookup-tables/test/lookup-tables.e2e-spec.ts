import { ServiceAccountsService } from '@analytics/accounts';
import { ClickHouseClient } from '@analytics/clickhouse';
import { AppConfig } from '@analytics/config';
import { ExportModule } from '@analytics/export';
import { IngestModule } from '@analytics/ingest';
import { ProjectsModule, ProjectsService } from '@analytics/projects';
import { QueryModule } from '@analytics/query';
import { SavedReportsModule } from '@analytics/reports';
import { PlatformModule } from '@analytics/runtime';
import { engineNeeds, intakeOf } from '@analytics/service-map';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';
import { DynamicModule } from '@nestjs/common';
import { gzipSync } from 'node:zlib';
import { LookupTablesModule } from '../src';

/** Ingestion (with the lookup-table routes), the app API's table definitions, reports and export in one app. */
function root(config: AppConfig): DynamicModule {
  return {
    module: class LookupTablesTestModule {},
    imports: [
      PlatformModule.forRoot(config, engineNeeds(config, ['ingest', 'query', 'export', 'management'])),
      ProjectsModule,
      IngestModule.forRoot(intakeOf(config)),
      LookupTablesModule,
      SavedReportsModule,
      QueryModule,
      ExportModule,
    ],
  };
}

const basic = (user: string, password = '') => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const at = (iso: string) => Date.parse(iso) / 1000;

const SONGS = [
  'song_id,artist,genre,is_platinum,listens',
  'c994bb,Drake,Pop,True,1700000000',
  'd8d949,Gipsy Kings,Flamenco,False,1170000',
  '"a43fb8","Daft Punk, the duo",House,false,41000000',
  '',
].join('\r\n');

describe('lookup tables through HTTP: definitions, replace, reports and export joined in the engine', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  let projectId: number;
  let secret: string;
  let consumer: string;
  let admin: string;
  let tableId: string;

  const call = (path: string, init: RequestInit & { auth?: string } = {}) =>
    fetch(`${service.baseUrl}${path}`, {
      ...init,
      headers: { Authorization: init.auth ?? basic(secret), 'Content-Type': 'application/json', ...init.headers },
    });
  const json = async (path: string, init: RequestInit & { auth?: string } = {}) => {
    const response = await call(path, init);
    return { status: response.status, body: (await response.json()) as any };
  };
  const put = (id: string, csv: string | Buffer, headers: Record<string, string> = {}, auth = admin) =>
    json(`/lookup-tables/${id}?project_id=${projectId}`, {
      method: 'PUT',
      body: csv,
      auth,
      headers: { 'Content-Type': 'text/csv', ...headers },
    });
  const segmentation = (parameters: Record<string, string>) =>
    json(
      `/api/query/segmentation?${new URLSearchParams({
        project_id: String(projectId),
        event: 'Song Played',
        from_date: '2024-03-04',
        to_date: '2024-03-05',
        unit: 'day',
        ...parameters,
      })}`,
      { auth: consumer },
    );

  beforeAll(async () => {
    environment = await createTestEnvironment({
      env: { QUERY_LIMIT_PER_SECOND: '1000', QUERY_LIMIT_PER_HOUR: '100000' },
    });
    service = await startTestApp(root, environment.config);
    const projects = service.app.get(ProjectsService);
    const organization = await projects.createOrganization('Music');
    const created = await projects.createProject(organization.id, 'Player');
    projectId = created.project.id;
    secret = created.secret;
    const accounts = service.app.get(ServiceAccountsService);
    for (const role of ['admin', 'consumer'] as const) {
      const { view, secret: password } = await accounts.create(organization.id, null, {
        username: `lookup-${role}`,
        role,
        projects: [{ id: projectId, role }],
      });
      if (role === 'admin') admin = basic(view.account.username, password);
      else consumer = basic(view.account.username, password);
    }
    const events = [
      ['2024-03-04T10:00:00Z', 'u1', 'c994bb'],
      ['2024-03-04T11:00:00Z', 'u2', 'c994bb'],
      ['2024-03-04T12:00:00Z', 'u2', 'd8d949'],
      ['2024-03-05T09:00:00Z', 'u3', 'a43fb8'],
      ['2024-03-05T10:00:00Z', 'u3', 'unknown'],
    ].map(([time, user, song], i) => ({
      event: 'Song Played',
      properties: { time: at(time), distinct_id: user, $insert_id: `s${i}`, song_id: song },
    }));
    expect((await call('/import?strict=1', { method: 'POST', body: JSON.stringify(events) })).status).toBe(200);
  });
  afterAll(async () => {
    await service?.close();
    await environment?.dispose();
  });

  it('creates a table mapped to an event property on the app API, and lists it on the ingestion host', async () => {
    const created = await json(`/api/app/projects/${projectId}/lookup-tables`, {
      method: 'POST',
      body: JSON.stringify({ name: 'Songs', mapped_to: { source: 'event', property: 'song_id' } }),
      auth: admin,
    });
    expect(created).toMatchObject({
      status: 201,
      body: { status: 'ok', results: { name: 'Songs', mapped_to: { source: 'event', property: 'song_id' } } },
    });
    tableId = created.body.results.id;
    expect(await json(`/lookup-tables?project_id=${projectId}`, { auth: consumer })).toEqual({
      status: 200,
      body: { code: 200, status: 'OK', results: [{ id: tableId, name: 'Songs' }] },
    });
    const taken = await json(`/api/app/projects/${projectId}/lookup-tables`, {
      method: 'POST',
      body: JSON.stringify({ name: 'Other', mapped_to: { source: 'event', property: 'song_id' } }),
      auth: admin,
    });
    expect(taken.status).toBe(409);
  });

  it('replaces the rows with a CSV (quotes, CRLF), refuses bad CSVs with the real API body, a consumer and unknown ids', async () => {
    expect(await put(tableId, SONGS)).toEqual({ status: 200, body: { code: 200, status: 'OK' } });
    const duplicate = await put(tableId, 'id,genre\nk1,Pop\nk1,Rock\n,Jazz\nk2\n');
    expect(duplicate).toEqual({
      status: 400,
      body: {
        code: 400,
        error: 'Some data points in the request failed validation.',
        status: 'Bad Request',
        failed_records: [
          { index: 1, message: 'invalid row: row indexes 0 and 1 have the same primary key' },
          { index: 2, message: 'primary key is required and cannot be blank' },
          { index: 3, message: 'invalid row: wrong number of fields' },
        ],
      },
    });
    expect((await put(tableId, 'id,genre\nk1,Pop\n', {}, consumer)).status).toBe(403);
    expect(await put('f077cb07-008a-4955-8a4a-b4c163db3a87', 'id,genre\nk1,Pop\n')).toEqual({
      status: 404,
      body: {
        code: 404,
        error: "Lookup table with id 'f077cb07-008a-4955-8a4a-b4c163db3a87' was not found.",
        status: 'Not Found',
      },
    });
    const unauthenticated = await put(tableId, 'id,genre\nk1,Pop\n', {}, basic('nobody', 'wrong'));
    expect(unauthenticated).toMatchObject({ status: 401, body: { code: 401, status: 'Unauthorized' } });
    // The refused replaces left the table as it was.
    const table = await json(`/api/app/projects/${projectId}/lookup-tables/${tableId}`, { auth: consumer });
    expect(table.body.results).toMatchObject({ columns: ['artist', 'genre', 'is_platinum', 'listens'], row_count: 3 });
  });

  it('filters and breaks a segmentation down by a looked-up column, numbers and booleans typed', async () => {
    const byGenre = await segmentation({ on: 'properties["song_id"]["genre"]' });
    expect(byGenre.status).toBe(200);
    expect(byGenre.body.data.values).toEqual({
      Pop: { '2024-03-04': 2, '2024-03-05': 0 },
      Flamenco: { '2024-03-04': 1, '2024-03-05': 0 },
      House: { '2024-03-04': 0, '2024-03-05': 1 },
    });
    const platinum = await segmentation({ where: 'properties["song_id"]["is_platinum"] == true' });
    expect(platinum.body.data.values).toEqual({ 'Song Played': { '2024-03-04': 2, '2024-03-05': 0 } });
    const big = await segmentation({
      where: 'properties["song_id"]["listens"] > 2000000 and "Daft" in properties["song_id"]["artist"]',
    });
    expect(big.body.data.values).toEqual({ 'Song Played': { '2024-03-04': 0, '2024-03-05': 1 } });
    const unmatched = await segmentation({ where: 'not defined(properties["song_id"]["genre"])' });
    expect(unmatched.body.data.values).toEqual({ 'Song Played': { '2024-03-04': 0, '2024-03-05': 1 } });
  });

  it("filters the raw export's where by a looked-up column", async () => {
    const response = await call(
      `/api/2.0/export?${new URLSearchParams({
        project_id: String(projectId),
        from_date: '2024-03-04',
        to_date: '2024-03-05',
        where: 'properties["song_id"]["genre"] == "Pop"',
      })}`,
      { auth: consumer },
    );
    expect(response.status).toBe(200);
    const rows = (await response.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { properties: Record<string, unknown> });
    expect(rows.map((row) => row.properties.$insert_id).sort()).toEqual(['s0', 's1']);
  });

  it('a later replace (gzip) switches every report to the new rows at once', async () => {
    const csv = 'id,genre\nc994bb,Rap\nunknown,Jazz\n';
    expect(await put(tableId, gzipSync(csv), { 'Content-Encoding': 'gzip' })).toEqual({
      status: 200,
      body: { code: 200, status: 'OK' },
    });
    const byGenre = await segmentation({ on: 'properties["song_id"]["genre"]' });
    expect(byGenre.body.data.values).toEqual({
      Rap: { '2024-03-04': 2, '2024-03-05': 0 },
      Jazz: { '2024-03-04': 0, '2024-03-05': 1 },
    });
    // The old column is gone with the old rows.
    const artist = await segmentation({ where: 'defined(properties["song_id"]["artist"])' });
    expect(artist.body.data.values).toEqual({ 'Song Played': { '2024-03-04': 0, '2024-03-05': 0 } });
    // A third replace: the current version and the one it replaced are kept, older ones deleted.
    await put(tableId, 'id,genre\nc994bb,Soul\n');
    const versions = await service.app.get<ClickHouseClient>(ClickHouseClient).query({
      query:
        'SELECT version, count() AS n FROM lookup_table_rows WHERE table_id = {id:String} GROUP BY version ORDER BY version',
      query_params: { id: tableId },
      format: 'JSONEachRow',
    });
    expect((await versions.json<{ n: string }>()).map((row) => Number(row.n))).toEqual([2, 1]);
  });

  it('without a mapping, the path reads the event property as JSON again', async () => {
    const unmapped = await json(`/api/app/projects/${projectId}/lookup-tables/${tableId}`, {
      method: 'PATCH',
      body: JSON.stringify({ mapped_to: null }),
      auth: admin,
    });
    expect(unmapped.body.results.mapped_to).toBeNull();
    const byGenre = await segmentation({ on: 'properties["song_id"]["genre"]' });
    expect(byGenre.body.data.values).toEqual({});
    const deleted = await json(`/api/app/projects/${projectId}/lookup-tables/${tableId}`, {
      method: 'DELETE',
      auth: admin,
    });
    expect(deleted).toEqual({ status: 200, body: { status: 'ok', results: { id: tableId } } });
    const rows = await service.app.get<ClickHouseClient>(ClickHouseClient).query({
      query: 'SELECT count() AS n FROM lookup_table_rows WHERE table_id = {id:String}',
      query_params: { id: tableId },
      format: 'JSONEachRow',
    });
    expect((await rows.json<{ n: string }>()).map((row) => Number(row.n))).toEqual([0]);
    expect((await json(`/lookup-tables?project_id=${projectId}`, { auth: consumer })).body.results).toEqual([]);
  });
});
