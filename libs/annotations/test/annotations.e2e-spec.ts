import { ServiceAccountsService } from '@analytics/accounts';
import { AppConfig } from '@analytics/config';
import { ProjectsService } from '@analytics/projects';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';
import { DynamicModule } from '@nestjs/common';
import { ServiceRootModule } from '@analytics/service-map';
import { AnnotationsModule } from '../src';

const basic = (user: string, password = '') => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** The standalone with annotations mounted, as the lead will mount them with management. */
const root = (config: AppConfig): DynamicModule => ({
  module: class AnnotationsTestRoot {},
  imports: [ServiceRootModule.forRoot(config), AnnotationsModule],
});

// On PGlite, the embedded default (the dictionary's tests use the Postgres server when there is one).
describe('annotations and their tags', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  let projectId: number;
  let otherProjectId: number;
  const callers = { owner: '', analyst: '', consumer: '', secret: '', otherOwner: '' };
  const users = { owner: { id: 0, first_name: '', last_name: '' }, analyst: { id: 0, first_name: '', last_name: '' } };

  const api = async (method: string, path: string, authorization: string, body?: unknown) => {
    const response = await fetch(`${service.baseUrl}${path}`, {
      method,
      headers: { Authorization: authorization, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const annotations = (rest = '', project = projectId) => `/api/app/projects/${project}/annotations${rest}`;

  beforeAll(async () => {
    environment = await createTestEnvironment({ postgres: 'pglite' });
    service = await startTestApp(root, environment.config);
    const projects = service.app.get(ProjectsService);
    const accounts = service.app.get(ServiceAccountsService);
    const organization = await projects.createOrganization('Annotated');
    const created = await projects.createProject(organization.id, 'Web');
    projectId = created.project.id;
    callers.secret = basic(created.secret);
    for (const role of ['owner', 'analyst', 'consumer'] as const) {
      const { view, secret } = await accounts.create(organization.id, null, {
        username: `annotator-${role}`,
        role: 'consumer',
        projects: [{ id: projectId, role }],
      });
      callers[role] = basic(view.account.username, secret);
      // An account's user record carries its username as first name.
      if (role !== 'consumer')
        users[role] = { id: view.account.userId, first_name: view.account.username, last_name: '' };
    }
    const other = await projects.createOrganization('Elsewhere');
    otherProjectId = (await projects.createProject(other.id, 'Theirs')).project.id;
    const stranger = await accounts.create(other.id, null, { username: 'elsewhere-owner', role: 'owner' });
    callers.otherOwner = basic(stranger.view.account.username, stranger.secret);
  });
  afterAll(async () => {
    await service?.close();
    await environment?.dispose();
  });

  it('creates tags (bare objects, idempotent by name) and lists them with has_annotations', async () => {
    const release = await api('POST', annotations('/tags'), callers.analyst, { name: 'release' });
    expect(release).toEqual({
      status: 200,
      body: { id: expect.any(Number), name: 'release', project_id: projectId, has_annotations: false },
    });
    expect((await api('POST', annotations('/tags'), callers.owner, { name: 'release' })).body).toEqual(release.body);
    const incident = (await api('POST', annotations('/tags'), callers.analyst, { name: 'incident' })).body;
    expect(await api('GET', annotations('/tags'), callers.consumer)).toEqual({
      status: 200,
      body: [release.body, incident],
    });
    expect((await api('GET', annotations('/tags'), callers.otherOwner)).status).toBe(403);
    const foreign = (await api('POST', annotations('/tags', otherProjectId), callers.otherOwner, { name: 'release' }))
      .body;
    expect(foreign).toMatchObject({ name: 'release', project_id: otherProjectId });
    expect(foreign.id).not.toBe(release.body.id);
  });

  it('creates (201), gets, patches and deletes an annotation, recording who created it', async () => {
    const tags = (await api('GET', annotations('/tags'), callers.consumer)).body as { id: number; name: string }[];
    const [release, incident] = tags.filter((tag) => tag.name === 'release' || tag.name === 'incident');
    const created = await api('POST', annotations(), callers.analyst, {
      date: '2024-03-01 12:30:00',
      description: 'v2 launched',
      tags: [release.id],
    });
    expect(created).toEqual({
      status: 201,
      body: {
        status: 'ok',
        results: {
          id: expect.any(Number),
          date: '2024-03-01 12:30:00',
          description: 'v2 launched',
          user: users.analyst,
          tags: [{ id: release.id, name: 'release' }],
        },
      },
    });
    const id = created.body.results.id as number;
    expect(await api('GET', annotations(`/${id}`), callers.consumer)).toEqual({ status: 200, body: created.body });
    expect(
      (await api('GET', annotations('/tags'), callers.consumer)).body.find(
        (tag: { id: number }) => tag.id === release.id,
      ).has_annotations,
    ).toBe(true);

    const patched = await api('PATCH', annotations(`/${id}`), callers.owner, {
      description: 'v2 launched (EU)',
      tags: [incident.id, release.id],
    });
    expect(patched.status).toBe(200);
    expect(patched.body.results).toMatchObject({
      id,
      date: '2024-03-01 12:30:00',
      description: 'v2 launched (EU)',
      user: users.analyst,
      tags: [
        { id: release.id, name: 'release' },
        { id: incident.id, name: 'incident' },
      ],
    });
    expect((await api('PATCH', annotations(`/${id}`), callers.owner, { tags: [] })).body.results.tags).toEqual([]);

    expect(await api('DELETE', annotations(`/${id}`), callers.analyst)).toEqual({
      status: 200,
      body: { status: 'ok', results: { id } },
    });
    expect(await api('GET', annotations(`/${id}`), callers.consumer)).toEqual({
      status: 404,
      body: { status: 'error', error: `annotation ${id} not found in project ${projectId}` },
    });
    expect((await api('DELETE', annotations(`/${id}`), callers.analyst)).status).toBe(404);
    expect((await api('PATCH', annotations(`/${id}`), callers.analyst, { description: 'gone' })).status).toBe(404);
  });

  it('lists in date order between fromDate and toDate (with time, or whole days)', async () => {
    const dates = ['2025-01-31 23:59:59', '2025-01-01 00:00:00', '2025-02-01 00:00:00', '2024-12-31 23:59:59'];
    for (const date of dates)
      expect((await api('POST', annotations(), callers.secret, { date, description: `at ${date}` })).status).toBe(201);
    const listed = async (query: string) =>
      ((await api('GET', annotations(query), callers.consumer)).body.results as { date: string }[]).map((a) => a.date);
    expect(await listed('?fromDate=2025-01-01&toDate=2025-01-31')).toEqual([
      '2025-01-01 00:00:00',
      '2025-01-31 23:59:59',
    ]);
    expect(await listed('?fromDate=2025-01-01 00:00:01&toDate=2025-02-01 00:00:00')).toEqual([
      '2025-01-31 23:59:59',
      '2025-02-01 00:00:00',
    ]);
    expect(await listed('?fromDate=2024-12-01&toDate=2024-12-31')).toEqual(['2024-12-31 23:59:59']);
    expect(await listed('?fromDate=2025-02-01&_=123')).toEqual(['2025-02-01 00:00:00']);
    expect((await listed('')).length).toBeGreaterThanOrEqual(4);
    // A project secret is no user: the annotation has none.
    expect((await api('GET', annotations('?fromDate=2025-02-01'), callers.consumer)).body.results[0].user).toBeNull();
  });

  it('answers bad requests with 400 and keeps projects apart', async () => {
    const foreignTag = (await api('POST', annotations('/tags', otherProjectId), callers.otherOwner, { name: 'theirs' }))
      .body.id as number;
    const created = (
      await api('POST', annotations(), callers.analyst, { date: '2024-05-05 05:05:05', description: 'kept' })
    ).body.results;
    const refusals: [string, string, unknown, string][] = [
      [
        'POST',
        '',
        { date: '2024-05-05T05:05:05Z', description: 'x' },
        'date must be a date as YYYY-MM-DD HH:mm:ss or YYYY-MM-DD (UTC), got "2024-05-05T05:05:05Z"',
      ],
      ['POST', '', { date: '2024-02-30 00:00:00', description: 'x' }, 'date must be a date'],
      ['POST', '', { description: 'x' }, 'date must be a string'],
      ['POST', '', { date: '2024-05-05 05:05:05' }, 'description must be a string'],
      ['POST', '', { date: '2024-05-05 05:05:05', description: 'x', tags: [999999] }, 'unknown tag ids: 999999'],
      [
        'POST',
        '',
        { date: '2024-05-05 05:05:05', description: 'x', tags: [foreignTag] },
        `unknown tag ids: ${foreignTag}`,
      ],
      [
        'POST',
        '',
        { date: '2024-05-05 05:05:05', description: 'x', tags: ['release'] },
        'tags must be an array of tag ids',
      ],
      ['PATCH', `/${created.id}`, { date: '2024-06-06 06:06:06' }, 'date is not patchable'],
      ['PATCH', `/${created.id}`, { tags: [999999] }, 'unknown tag ids: 999999'],
      ['PATCH', `/${created.id}`, { colour: 'red' }, 'property colour should not exist'],
      ['GET', '/abc', undefined, 'numeric string is expected'],
      ['GET', '?fromDate=2025-02-02&toDate=2025-02-01', undefined, 'fromDate is after toDate'],
      ['GET', '?toDate=tomorrow', undefined, 'toDate must be a date'],
      ['POST', '/tags', { name: '' }, 'name must be longer than or equal to 1 characters'],
      ['POST', '/tags', {}, 'name must be a string'],
      ['POST', '', '{"date":', 'request body is not valid JSON or form data'],
    ];
    for (const [method, rest, body, error] of refusals) {
      const answer = await api(method, annotations(rest), callers.analyst, body);
      expect({ method, rest, status: answer.status, body: answer.body }).toEqual({
        method,
        rest,
        status: 400,
        body: { status: 'error', error: expect.stringContaining(error) },
      });
    }
    expect((await api('GET', annotations(`/${created.id}`), callers.consumer)).body.results.description).toBe('kept');
    expect((await api('GET', annotations(`/${created.id}`, otherProjectId), callers.otherOwner)).status).toBe(404);
    expect((await api('GET', annotations(`/99999999999`), callers.consumer)).status).toBe(404);
  });

  it('lets consumers read and analysts and above write', async () => {
    const created = (await api('POST', annotations(), callers.analyst, { date: '2024-07-07', description: 'midnight' }))
      .body.results;
    expect(created.date).toBe('2024-07-07 00:00:00');
    expect(created.user).toEqual(users.analyst);
    for (const [method, rest, body] of [
      ['POST', '', { date: '2024-07-07 00:00:00', description: 'no' }],
      ['PATCH', `/${created.id}`, { description: 'no' }],
      ['DELETE', `/${created.id}`, undefined],
      ['POST', '/tags', { name: 'no' }],
    ] as const) {
      expect(await api(method, annotations(rest), callers.consumer, body)).toEqual({
        status: 403,
        body: { status: 'error', error: `this needs the analyst role or above on project ${projectId}` },
      });
    }
    expect((await api('GET', annotations(`/${created.id}`), callers.consumer)).status).toBe(200);
    expect((await api('GET', annotations(), 'Basic bm9ib2R5OnNlY3JldA==')).status).toBe(401);
    expect((await api('GET', annotations(), callers.otherOwner)).status).toBe(403);
  });
});
