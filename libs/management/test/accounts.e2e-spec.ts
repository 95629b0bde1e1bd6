import { AccountBootstrapService } from '@analytics/accounts';
import { ProjectBootstrapService, ProjectsService } from '@analytics/projects';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';
import { ServiceRootModule } from '@analytics/service-map';

const basic = (user: string, password = '') => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('service accounts, projects and /api/app/me', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  let owner: string;
  let organizationId: number;
  let projectId: number;

  const api = async (method: string, path: string, authorization: string, body?: unknown) => {
    const response = await fetch(`${service.baseUrl}${path}`, {
      method,
      headers: { Authorization: authorization, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return {
      status: response.status,
      body: (await response.json()) as { status: string; results?: any; error?: string },
    };
  };

  beforeAll(async () => {
    environment = await createTestEnvironment({
      env: {
        BOOTSTRAP_SERVICE_ACCOUNT_USERNAME: 'first-owner',
        BOOTSTRAP_SERVICE_ACCOUNT_SECRET: 'first-owner-secret-0001',
      },
    });
    service = await startTestApp((config) => ServiceRootModule.forRoot(config), environment.config);
    const created = (await service.app.get(ProjectBootstrapService).ensureDefaultProject())!;
    const account = (await service.app.get(AccountBootstrapService).ensureOwner(created.organization.id))!;
    expect(account).toEqual({ username: 'first-owner', secret: 'first-owner-secret-0001', generated: false });
    organizationId = created.organization.id;
    projectId = created.project.id;
    owner = basic('first-owner', 'first-owner-secret-0001');
  });
  afterAll(async () => {
    await service.close();
    await environment.dispose();
  });

  const accountsPath = () => `/api/app/organizations/${organizationId}/service-accounts`;

  it('creates an account (201), shows its secret once in `token`, never again', async () => {
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const created = await api('POST', accountsPath(), owner, {
      username: 'etl',
      role: 'consumer',
      expires,
      projects: [{ id: projectId, role: 'analyst' }],
    });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('ok');
    const account = created.body.results;
    expect(account).toMatchObject({
      username: expect.stringMatching(/^etl\.[0-9a-f]{6}\.service-account$/),
      expires,
      creator: expect.any(Number),
      user: expect.any(Number),
      last_used: null,
      projects: [{ id: projectId, role: 'analyst' }],
    });
    expect(account.token).toMatch(/^[0-9a-f]{32}$/);
    expect(new Date(account.created).getTime()).toBeGreaterThan(Date.now() - 60_000);

    const listed = await api('GET', accountsPath(), owner);
    expect(listed.body.results.map((a: { username: string }) => a.username)).toContain(account.username);
    expect(JSON.stringify(listed.body)).not.toContain(account.token);
    const got = await api('GET', `${accountsPath()}/${account.id}`, owner);
    expect(got.body.results).toMatchObject({ id: account.id, username: account.username });
    expect(got.body.results.token).toBeUndefined();

    const me = await api('GET', '/api/app/me', basic(account.username, account.token));
    expect(me.body.results.projects).toEqual([expect.objectContaining({ id: projectId, role: 'analyst' })]);
    const used = await api('GET', `${accountsPath()}/${account.id}`, owner);
    expect(used.body.results.last_used).not.toBeNull();
  });

  it('adds to and removes from projects, with effect on access', async () => {
    const created = (await api('POST', accountsPath(), owner, { username: 'reader' })).body.results;
    const credentials = basic(created.username, created.token);
    expect((await api('GET', `/api/app/projects/${projectId}`, credentials)).status).toBe(403);
    const added = await api('POST', `${accountsPath()}/add-to-project`, owner, {
      projects: [{ id: projectId, role: 'consumer' }],
      service_account_ids: [created.id],
    });
    expect(added).toEqual({ status: 200, body: { status: 'ok' } });
    expect((await api('GET', `/api/app/projects/${projectId}`, credentials)).status).toBe(200);
    const removed = await api('POST', `${accountsPath()}/remove-from-project`, owner, {
      projects: [{ id: projectId, service_account_ids: [created.id] }],
    });
    expect(removed).toEqual({ status: 200, body: { status: 'ok' } });
    expect((await api('GET', `/api/app/projects/${projectId}`, credentials)).status).toBe(403);
  });

  it('deletes an account for good', async () => {
    const created = (await api('POST', accountsPath(), owner, { username: 'temp', role: 'admin' })).body.results;
    expect(await api('DELETE', `${accountsPath()}/${created.id}`, owner)).toEqual({
      status: 200,
      body: { status: 'ok' },
    });
    expect((await api('GET', `${accountsPath()}/${created.id}`, owner)).status).toBe(404);
    expect((await api('GET', '/api/app/me', basic(created.username, created.token))).status).toBe(401);
  });

  it('refuses an expired account as if it did not exist', async () => {
    const created = (
      await api('POST', accountsPath(), owner, {
        username: 'short',
        role: 'owner',
        expires: new Date(Date.now() + 1000).toISOString(),
      })
    ).body.results;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await api('GET', '/api/app/me', basic(created.username, created.token))).toEqual({
      status: 401,
      body: { status: 'error', error: 'invalid credentials' },
    });
  });

  it('answers bad bodies with 400 in the app error shape', async () => {
    expect(await api('POST', accountsPath(), owner, { role: 'boss' })).toMatchObject({
      status: 400,
      body: { status: 'error', error: expect.stringContaining('username') },
    });
    expect(
      (await api('POST', accountsPath(), owner, { username: 'x', projects: [{ id: 999999, role: 'admin' }] })).body,
    ).toEqual({
      status: 'error',
      error: `project 999999 is not a project of organization ${organizationId}`,
    });
    const malformed = await fetch(`${service.baseUrl}${accountsPath()}`, {
      method: 'POST',
      headers: { Authorization: owner, 'Content-Type': 'application/json' },
      body: '{"username":',
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ status: 'error', error: 'request body is not valid JSON or form data' });
  });

  it('keeps organizations apart: an account of A can never see or touch B', async () => {
    const projects = service.app.get(ProjectsService);
    const other = await projects.createOrganization('Other');
    const otherProject = (await projects.createProject(other.id, 'Theirs')).project;
    for (const [method, path] of [
      ['GET', `/api/app/organizations/${other.id}/service-accounts`],
      ['POST', `/api/app/organizations/${other.id}/service-accounts`],
      ['GET', `/api/app/organizations/${other.id}/projects`],
      ['GET', `/api/app/projects/${otherProject.id}`],
      ['POST', `/api/app/projects/${otherProject.id}/rotate-secret`],
    ]) {
      expect((await api(method, path, owner, method === 'POST' ? { username: 'intruder' } : undefined)).status).toBe(
        403,
      );
    }
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['another scheme', 'Bearer abcdefghijklmnopqrstuvwxyz'],
    ['bad base64', 'Basic !!!notbase64!!!'],
    ['a huge header', `Basic ${'A'.repeat(12_000)}`],
    ['an unknown account', basic('nobody', 'nothing')],
    ['a wrong secret', basic('first-owner', 'wrong')],
  ])('answers %s with 401, never 500', async (_, authorization) => {
    const response = await fetch(`${service.baseUrl}/api/app/me`, {
      headers: authorization === undefined ? {} : { Authorization: authorization },
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ status: 'error' });
  });

  it('manages projects: create, list, get, rotate the secret, set the residency', async () => {
    const created = await api('POST', `/api/app/organizations/${organizationId}/projects`, owner, {
      name: 'Mobile',
      region: 'EU',
    });
    expect(created.status).toBe(201);
    const project = created.body.results;
    expect(project).toMatchObject({
      name: 'Mobile',
      region: 'EU',
      token: expect.any(String),
      secret: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    const listed = await api('GET', `/api/app/organizations/${organizationId}/projects`, owner);
    expect(listed.body.results.map((p: { id: number }) => p.id)).toContain(project.id);
    expect(JSON.stringify(listed.body)).not.toContain(project.secret);

    const exportWith = (secret: string) =>
      fetch(`${service.baseUrl}/api/2.0/export?from_date=2026-01-01&to_date=2026-01-01`, {
        headers: { Authorization: basic(secret) },
      });
    expect((await exportWith(project.secret)).status).toBe(200);
    const rotated = await api('POST', `/api/app/projects/${project.id}/rotate-secret`, owner);
    expect(rotated.body.results.secret).not.toBe(project.secret);
    expect((await exportWith(project.secret)).status).toBe(401);
    expect((await exportWith(rotated.body.results.secret)).status).toBe(200);

    const moved = await api('PATCH', `/api/app/projects/${project.id}`, owner, { region: 'IN' });
    expect(moved.body.results.region).toBe('IN');
    expect((await api('PATCH', `/api/app/projects/${project.id}`, owner, { region: 'MARS' })).status).toBe(400);

    // Identity merge (docs/identity.md): simplified for a new project, settable, shown, checked.
    expect(moved.body.results.identity_merge).toBe('simplified');
    const original = await api('PATCH', `/api/app/projects/${project.id}`, owner, { identity_merge: 'original' });
    expect(original.body.results).toMatchObject({ identity_merge: 'original', region: 'IN' });
    expect((await api('GET', `/api/app/projects/${project.id}`, owner)).body.results.identity_merge).toBe('original');
    const wrong = await api('PATCH', `/api/app/projects/${project.id}`, owner, { identity_merge: 'merged' });
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.body)).toContain('identity_merge');
  });

  it('lets nobody grant, change or remove a role above their own: only owners make owners', async () => {
    const made = async (role: string, by = owner) => {
      const created = await api('POST', accountsPath(), by, { username: `rank-${role}`, role });
      return {
        status: created.status,
        id: created.body.results?.id as number,
        auth: created.body.results && basic(created.body.results.username, created.body.results.token),
      };
    };
    const admin = await made('admin');
    const otherOwner = await made('owner');
    expect([admin.status, otherOwner.status]).toEqual([201, 201]);

    const refused = (answer: { status: number; body: { status: string; error?: string } }) => ({
      status: answer.status,
      error: answer.body.error,
    });
    const aboveOwn = { status: 403, error: expect.stringMatching(/above|holds owner|which is owner/) };
    // An admin mints no owner, neither organization-wide nor on a project.
    expect(refused(await api('POST', accountsPath(), admin.auth, { username: 'x', role: 'owner' }))).toEqual(aboveOwn);
    expect(
      refused(
        await api('POST', accountsPath(), admin.auth, {
          username: 'x',
          role: 'consumer',
          projects: [{ id: projectId, role: 'owner' }],
        }),
      ),
    ).toEqual(aboveOwn);
    // …nor deletes an owner, nor changes an owner's project roles.
    expect(refused(await api('DELETE', `${accountsPath()}/${otherOwner.id}`, admin.auth))).toEqual(aboveOwn);
    const addOwner = { projects: [{ id: projectId, role: 'consumer' }], service_account_ids: [otherOwner.id] };
    expect(refused(await api('POST', `${accountsPath()}/add-to-project`, admin.auth, addOwner))).toEqual(aboveOwn);
    const removeOwner = { projects: [{ id: projectId, service_account_ids: [otherOwner.id] }] };
    expect(refused(await api('POST', `${accountsPath()}/remove-from-project`, admin.auth, removeOwner))).toEqual(
      aboveOwn,
    );
    // An admin still manages roles up to its own.
    const analyst = await api('POST', accountsPath(), admin.auth, {
      username: 'helper',
      role: 'admin',
      projects: [{ id: projectId, role: 'analyst' }],
    });
    expect(analyst.status).toBe(201);
    expect((await api('DELETE', `${accountsPath()}/${analyst.body.results.id}`, admin.auth)).status).toBe(200);
    // The owner that was refused above is still there, unchanged; owners may do all of it.
    expect((await api('GET', `${accountsPath()}/${otherOwner.id}`, owner)).body.results).toMatchObject({
      role: 'owner',
      projects: [],
    });
    expect((await api('DELETE', `${accountsPath()}/${otherOwner.id}`, owner)).status).toBe(200);
    expect((await made('owner', owner)).status).toBe(201);
  });

  it('issues OAuth tokens that expire, shown once', async () => {
    const issued = await api('POST', `/api/app/organizations/${organizationId}/oauth-tokens`, owner, {
      expires_in: 120,
    });
    expect(issued.status).toBe(201);
    expect(issued.body.results.token).toMatch(/^[0-9a-f]{48}$/);
    expect(new Date(issued.body.results.expires).getTime()).toBeGreaterThan(Date.now() + 100_000);
    expect(
      (await api('POST', `/api/app/organizations/${organizationId}/oauth-tokens`, owner, { expires_in: 1 })).status,
    ).toBe(400);
  });
});

describe('npm run admin', () => {
  it('creates an organization, a project, a service account and an OAuth token, readable or as JSON', async () => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const { resolve } = await import('node:path');
    const environment = await createTestEnvironment({
      env: {
        BOOTSTRAP_SERVICE_ACCOUNT_USERNAME: 'cli-owner',
        BOOTSTRAP_SERVICE_ACCOUNT_SECRET: 'cli-owner-secret-000001',
      },
    });
    const service = await startTestApp((config) => ServiceRootModule.forRoot(config), environment.config);
    try {
      const { organization } = (await service.app.get(ProjectBootstrapService).ensureDefaultProject())!;
      await service.app.get(AccountBootstrapService).ensureOwner(organization.id);
      const admin = (...args: string[]) =>
        promisify(execFile)(
          process.execPath,
          [resolve(__dirname, '../../../dist/apps/admin/src/main.js'), ...args, '--url', service.baseUrl],
          {
            env: { ...process.env, ADMIN_USERNAME: 'cli-owner', ADMIN_SECRET: 'cli-owner-secret-000001' },
          },
        );
      expect((await admin('me')).stdout).toContain('service account cli-owner (owner)');
      const org = await admin('create-organization', 'Acme', '--json');
      const created = JSON.parse(org.stdout) as { results: { id: number; owner: { username: string; token: string } } };
      expect(created.results.owner.token).toMatch(/^[0-9a-f]{32}$/);
      const project = await admin('create-project', String(organization.id), 'CLI project', '--region', 'EU');
      expect(project.stdout).toMatch(
        /project \d+ CLI project \(EU\)\ntoken {3}[0-9a-f]{32}\nsecret  [0-9a-f]{32} {4}<- shown only now/,
      );
      const projectId = /project (\d+)/.exec(project.stdout)![1];
      expect((await admin('set-retention', projectId, '30')).stdout).toBe(
        `project ${projectId} CLI project: events kept 30 days\n`,
      );
      expect((await admin('set-retention', projectId, 'forever')).stdout).toBe(
        `project ${projectId} CLI project: events kept for ever\n`,
      );
      await expect(admin('set-retention', projectId, '0')).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining('data_retention_days must be a whole number of days from 1 to 36500'),
      });
      await expect(admin('set-retention', projectId, 'soon')).rejects.toMatchObject({ code: 2 });
      expect(
        (await admin('create-service-account', String(organization.id), 'bot', '--role', 'analyst')).stdout,
      ).toMatch(/service account \d+ bot\.[0-9a-f]{6}\.service-account \(analyst\)/);
      expect((await admin('create-oauth-token', String(organization.id), '--expires-in', '600')).stdout).toMatch(
        /token {3}[0-9a-f]{48}/,
      );
      await expect(admin('rotate-secret', '999999')).rejects.toMatchObject({
        code: 1,
        stderr: 'error: these credentials do not give access to project 999999\n',
      });
      await expect(admin('nonsense')).rejects.toMatchObject({ code: 2 });
    } finally {
      await service.close();
      await environment.dispose();
    }
  });
});
