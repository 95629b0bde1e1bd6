import { ServiceAccountsService } from '@analytics/accounts';
import { AppConfig } from '@analytics/config';
import { IngestModule } from '@analytics/ingest';
import { ProjectsModule, ProjectsService } from '@analytics/projects';
import { QueryModule } from '@analytics/query';
import { SavedReportsModule } from '@analytics/reports';
import { PlatformModule } from '@analytics/runtime';
import { engineNeeds, intakeOf } from '@analytics/service-map';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';
import { DynamicModule } from '@nestjs/common';
import { BoardsModule, SharedBoardsModule } from '../src';

function boardsAndQueries(config: AppConfig): DynamicModule {
  return {
    module: class BoardsTestModule {},
    imports: [
      PlatformModule.forRoot(config, engineNeeds(config, ['ingest', 'query', 'management'])),
      ProjectsModule,
      IngestModule.forRoot(intakeOf(config)),
      SavedReportsModule,
      QueryModule,
      BoardsModule,
      SharedBoardsModule,
    ],
  };
}

const basic = (user: string, password = '') => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const DAY_S = 86_400;
type Json = Record<string, any>;

describe('boards, through HTTP', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  let projectId: number;
  let foreignProjectId: number;
  let secret: string;
  let foreignSecret: string;
  let consumer: string;
  let bookmarkId: number;
  let funnelId: number;
  let retentionId: number;
  let foreignBookmarkId: number;

  const call = async (path: string, init: RequestInit & { auth?: string | null } = {}) => {
    const response = await fetch(`${service.baseUrl}${path}`, {
      ...init,
      headers: {
        ...(init.auth === null ? {} : { Authorization: init.auth ?? basic(secret) }),
        'Content-Type': 'application/json',
      },
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const send = (method: string, path: string, body?: unknown, auth?: string | null) =>
    call(path, { method, body: body === undefined ? undefined : JSON.stringify(body), auth });
  const app = (path: string, project = projectId) => `/api/app/projects/${project}${path}`;
  const idOf = (answer: { body: Json }) => answer.body.results.id as number;
  const tile = (kind: string, report_id: number, x = 0) => ({ kind, report_id, layout: { x, y: 0, w: 6, h: 4 } });

  beforeAll(async () => {
    environment = await createTestEnvironment({
      env: { QUERY_LIMIT_PER_SECOND: '1000', QUERY_LIMIT_PER_HOUR: '100000' },
    });
    service = await startTestApp(boardsAndQueries, environment.config);
    const projects = service.app.get(ProjectsService);
    const organization = await projects.createOrganization('Boards');
    const created = await projects.createProject(organization.id, 'Main');
    projectId = created.project.id;
    secret = created.secret;
    const foreign = await projects.createProject(organization.id, 'Other');
    foreignProjectId = foreign.project.id;
    foreignSecret = foreign.secret;
    const { view, secret: password } = await service.app.get(ServiceAccountsService).create(organization.id, null, {
      username: 'reader',
      role: 'consumer',
      projects: [{ id: projectId, role: 'consumer' }],
    });
    consumer = basic(view.account.username, password);

    const now = Math.floor(Date.now() / 1000);
    const events = [
      ['Signed up', now - 2 * DAY_S, 'u1', 'pro'],
      ['Purchased', now - 2 * DAY_S + 60, 'u1', 'pro'],
      ['Signed up', now - DAY_S, 'u2', 'free'],
      ['Signed up', now - 60 * DAY_S, 'u3', 'pro'],
    ].map(([event, time, user, plan], i) => ({
      event,
      properties: { time, distinct_id: user, $insert_id: `b${i}`, plan },
    }));
    expect((await send('POST', '/import?strict=1', events)).status).toBe(200);

    const params = { events: [{ event: 'Signed up', math: 'total' }], last_days: 7, unit: 'day' };
    bookmarkId = idOf(await send('POST', app('/bookmarks'), { name: 'Sign-ups', params }));
    const funnel = await send('POST', app('/funnels'), {
      name: 'Buy',
      steps: [{ event: 'Signed up' }, { event: 'Purchased' }],
      length: 1,
      length_unit: 'day',
    });
    funnelId = funnel.body.results.funnel_id as number;
    const retention = { retention_type: 'birth', born_event: 'Signed up', unit: 'day', interval_count: 3 };
    retentionId = idOf(await send('POST', app('/retention-reports'), { name: 'Return', ...retention }));
    foreignBookmarkId = idOf(
      await send('POST', app('/bookmarks', foreignProjectId), { name: 'Theirs', params }, basic(foreignSecret)),
    );
  });
  afterAll(async () => {
    await service?.close();
    await environment?.dispose();
  });

  it('creates, lists, reads, changes and deletes a board; consumers read, only analysts write', async () => {
    expect((await send('POST', app('/boards'), {})).body).toEqual({
      status: 'error',
      error: expect.stringMatching(/name/),
    });
    const created = await send('POST', app('/boards'), {
      name: 'Growth',
      description: 'Weekly',
      tiles: [tile('insights', bookmarkId), tile('funnel', funnelId, 6)],
      date_range: { last_days: 14 },
      where: 'properties["plan"] == "pro"',
    });
    expect(created.status).toBe(201);
    expect(created.body.results).toMatchObject({
      name: 'Growth',
      description: 'Weekly',
      date_range: { last_days: 14 },
      where: 'properties["plan"] == "pro"',
      shared_until: null,
      created_by: 'project secret',
      tiles: [
        { kind: 'insights', report_id: bookmarkId, report: { name: 'Sign-ups' } },
        { kind: 'funnel', report_id: funnelId, layout: { x: 6, y: 0, w: 6, h: 4 }, report: { name: 'Buy' } },
      ],
    });
    const id = idOf(created);
    expect((await call(app('/boards'), { auth: consumer })).body.results).toEqual([
      expect.objectContaining({ id, name: 'Growth', tile_count: 2 }),
    ]);
    expect((await call(app(`/boards/${id}`), { auth: consumer })).body.results.name).toBe('Growth');
    expect((await send('PATCH', app(`/boards/${id}`), { name: 'No' }, consumer)).status).toBe(403);
    const changed = await send('PATCH', app(`/boards/${id}`), {
      name: 'Growth 2',
      date_range: { from_date: '2026-01-01', to_date: '2026-01-31' },
    });
    expect(changed.body.results).toMatchObject({
      name: 'Growth 2',
      description: 'Weekly',
      date_range: { from_date: '2026-01-01', to_date: '2026-01-31' },
    });
    expect((await send('DELETE', app(`/boards/${id}`), undefined, consumer)).status).toBe(403);
    expect((await send('DELETE', app(`/boards/${id}`))).body).toEqual({ status: 'ok', results: { id } });
    expect((await call(app(`/boards/${id}`))).status).toBe(404);
  });

  it('answers clear 400s, and 404 for another project’s board', async () => {
    const refused = async (body: unknown, message: RegExp) => {
      const answer = await send('POST', app('/boards'), { name: 'Bad', ...(body as object) });
      expect(answer).toEqual({ status: 400, body: { status: 'error', error: expect.stringMatching(message) } });
    };
    await refused({ tiles: [tile('insights', foreignBookmarkId)] }, /no saved insights report/);
    await refused({ tiles: [tile('funnel', bookmarkId)] }, /no saved funnel report/);
    await refused({ tiles: [tile('flows', bookmarkId)] }, /kind/);
    await refused({ tiles: [{ ...tile('insights', bookmarkId), layout: { x: 8, y: 0, w: 6, h: 1 } }] }, /x \+ w/);
    await refused({ tiles: Array.from({ length: 31 }, () => tile('insights', bookmarkId)) }, /tiles/);
    await refused({ date_range: { last_days: 7, from_date: '2026-01-01', to_date: '2026-01-02' } }, /not both/);
    await refused({ date_range: { from_date: '2026-02-30', to_date: '2026-03-01' } }, /calendar day/);
    await refused({ date_range: { from_date: '2026-03-02', to_date: '2026-03-01' } }, /after/);
    await refused({ where: 'properties["plan"] ==' }, /where/);
    await refused({ name: 'x'.repeat(256) }, /name/);
    const theirs = idOf(await send('POST', app('/boards', foreignProjectId), { name: 'Theirs' }, basic(foreignSecret)));
    expect((await call(app(`/boards/${theirs}`))).status).toBe(404);
    expect((await send('PATCH', app(`/boards/${theirs}`), { name: 'Mine' })).status).toBe(404);
    expect((await send('POST', app(`/boards/${theirs}/share`), {})).status).toBe(404);
  });

  it('shows a tile whose report was deleted later as "report deleted", not an error', async () => {
    const doomed = idOf(
      await send('POST', app('/bookmarks'), {
        name: 'Doomed',
        params: { events: [{ event: 'Signed up', math: 'total' }], last_days: 7, unit: 'day' },
      }),
    );
    const id = idOf(await send('POST', app('/boards'), { name: 'Has doomed', tiles: [tile('insights', doomed)] }));
    await send('DELETE', app(`/bookmarks/${doomed}`));
    const board = await call(app(`/boards/${id}`));
    expect(board.status).toBe(200);
    expect(board.body.results.tiles).toEqual([expect.objectContaining({ report: { deleted: true } })]);
    const { token } = (await send('POST', app(`/boards/${id}/share`), {})).body.results as Json;
    const shared = await call(`/api/shared/boards/${token}`, { auth: null });
    expect(shared.status).toBe(200);
    expect(shared.body.results.tiles).toEqual([expect.objectContaining({ error: 'report deleted' })]);
  });

  it('shares a board read-only: tiles computed with the board’s range and filter, no account needed', async () => {
    const id = idOf(
      await send('POST', app('/boards'), {
        name: 'Shared',
        tiles: [tile('insights', bookmarkId), tile('funnel', funnelId, 6), tile('retention', retentionId)],
        date_range: { last_days: 7 },
        where: 'properties["plan"] == "pro"',
      }),
    );
    expect((await send('POST', app(`/boards/${id}/share`), {}, consumer)).status).toBe(403);
    expect((await send('POST', app(`/boards/${id}/share`), { expires_in_days: 91 })).status).toBe(400);
    const shared = await send('POST', app(`/boards/${id}/share`), { expires_in_days: 3 });
    expect(shared.status).toBe(201);
    const { url, token, expires_at } = shared.body.results as Json;
    expect(url).toBe(`${service.baseUrl}/api/shared/boards/${token}`);
    expect(Date.parse(expires_at) - Date.now()).toBeGreaterThan(3 * DAY_S * 1000 - 60_000);
    expect((await call(app(`/boards/${id}`))).body.results.shared_until).toBe(expires_at);

    const view = await call(`/api/shared/boards/${token}`, { auth: null });
    expect(view.status).toBe(200);
    const [insights, funnel, retention] = view.body.results.tiles as Json[];
    expect(view.body.results).not.toHaveProperty('created_by');
    // The board's filter keeps the pro plan's one sign-up of the last 7 days (u2 is free, u3 is too old).
    const series = insights.result.series as Record<string, Record<string, number>>;
    const counts = Object.values(series).flatMap((values) => Object.values(values));
    expect(counts.reduce((sum, n) => sum + n, 0)).toBe(1);
    expect(funnel.error).toBeUndefined();
    expect(JSON.stringify(funnel.result)).toContain('"count":1');
    // Retention over the board's 7 days: one cohort day per day, u1's the only pro birth, back (Purchased) on day 0.
    const cohorts = Object.values(retention.result as Record<string, { first: number; counts: number[] }>);
    expect(retention).toMatchObject({ kind: 'retention', report: { name: 'Return' } });
    expect(cohorts).toHaveLength(7);
    expect(cohorts.filter((c) => c.first > 0)).toEqual([{ first: 1, counts: [1, 0, 0, 0] }]);
  });

  it('refuses tampered, other-board and revoked links with 404 in the app API shape', async () => {
    const id = idOf(await send('POST', app('/boards'), { name: 'Revocable', tiles: [tile('insights', bookmarkId)] }));
    const first = (await send('POST', app(`/boards/${id}/share`), {})).body.results.token as string;
    const second = (await send('POST', app(`/boards/${id}/share`), { expires_in_days: 1 })).body.results
      .token as string;
    expect((await call(`/api/shared/boards/${first}`, { auth: null })).status).toBe(200);
    const [, expires, signature] = first.split('.');
    for (const forged of [`${id}.${Number(expires) + 1}.${signature}`, `${id + 1}.${expires}.${signature}`]) {
      expect(await call(`/api/shared/boards/${forged}`, { auth: null })).toEqual({
        status: 404,
        body: { status: 'error', error: expect.stringMatching(/no shared board at this link/) },
      });
    }
    expect(await call('/api/shared/boards/nope', { auth: null })).toEqual({
      status: 400,
      body: { status: 'error', error: expect.stringMatching(/not a board share link/) },
    });
    expect((await send('DELETE', app(`/boards/${id}/share`), undefined, consumer)).status).toBe(403);
    expect((await send('DELETE', app(`/boards/${id}/share`))).status).toBe(200);
    for (const token of [first, second])
      expect((await call(`/api/shared/boards/${token}`, { auth: null })).status).toBe(404);
    const again = (await send('POST', app(`/boards/${id}/share`), {})).body.results.token as string;
    expect((await call(`/api/shared/boards/${again}`, { auth: null })).status).toBe(200);
    expect((await call(`/api/shared/boards/${first}`, { auth: null })).status).toBe(404);
  });
});
