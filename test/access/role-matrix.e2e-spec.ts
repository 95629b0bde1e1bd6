import { ServiceAccountsService } from '@analytics/accounts';
import { ROLE_MATRIX, Role, ROLES, RouteAccess, routeAccess } from '@analytics/auth';
import { ProjectsService } from '@analytics/projects';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';
import { ServiceRootModule } from '@analytics/service-map';

interface Registered {
  method: string;
  path: string;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
/** The unknown-route fallback and middleware mounts: `*path`, `{/*splat}`. */
const CATCH_ALL = /^\{?\/?\*/;

/** Every route the running app registered, as Express holds them (middleware mounts, `*path` catch-alls, are not routes). */
function registeredRoutes(service: TestApp): Registered[] {
  const express = service.app.getHttpAdapter().getInstance() as { router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] } };
  return express.router.stack
    .filter((layer) => layer.route)
    .flatMap((layer) =>
      Object.keys(layer.route!.methods)
        .map((method) => ({ method: method.toUpperCase(), path: layer.route!.path.replace(/(.)\/$/, '$1') }))
        .filter((r) => METHODS.has(r.method) && !CATCH_ALL.test(r.path)),
    );
}

const basic = (user: string, password = '') => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/**
 * Walks every registered route of every service (the standalone mounts them all) for each role, for
 * a foreign project, another organization, an expired account and no credentials; a route the role
 * matrix does not cover fails the test.
 */
describe('the role matrix', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  const callers: Record<Role, string> = {} as Record<Role, string>;
  let projectId: number;
  let organizationId: number;
  let foreignProjectId: number;
  let foreignOrganizationId: number;
  let expired: string;
  let outsider: string;

  beforeAll(async () => {
    environment = await createTestEnvironment();
    service = await startTestApp((config) => ServiceRootModule.forRoot(config), environment.config);
    const projects = service.app.get(ProjectsService);
    const accounts = service.app.get(ServiceAccountsService);
    const home = await projects.createOrganization('Home');
    const foreign = await projects.createOrganization('Foreign');
    organizationId = home.id;
    foreignOrganizationId = foreign.id;
    projectId = (await projects.createProject(home.id, 'P')).project.id;
    foreignProjectId = (await projects.createProject(foreign.id, 'F')).project.id;
    for (const role of ROLES) {
      const { view, secret } = await accounts.create(home.id, null, { username: `role-${role}`, role, projects: [{ id: projectId, role }] });
      callers[role] = basic(view.account.username, secret);
    }
    const old = await accounts.create(home.id, null, { username: 'expiring', role: 'owner', expires: new Date(Date.now() + 1500) });
    expired = basic(old.view.account.username, old.secret);
    const stranger = await accounts.create(foreign.id, null, { username: 'stranger', role: 'owner' });
    outsider = basic(stranger.view.account.username, stranger.secret);
    await new Promise((resolve) => setTimeout(resolve, 1600)); // let the expiring account expire
  });
  afterAll(async () => {
    await service.close();
    await environment.dispose();
  });

  const url = (rule: Registered, project = projectId, organization = organizationId) => {
    const path = rule.path
      .replace(':projectId', String(project))
      .replace(':organizationId', String(organization))
      .replace(/:[A-Za-z]+/g, '999999');
    const separator = path.includes('?') ? '&' : '?';
    const scoped = /^\/(api\/query|api\/2\.0|import)/.test(path);
    return `${service.baseUrl}${path}${scoped ? `${separator}project_id=${project}` : ''}`;
  };
  const call = async (rule: Registered, authorization: string | undefined, project?: number, organization?: number) => {
    const response = await fetch(url(rule, project, organization), {
      method: rule.method,
      headers: { ...(authorization ? { Authorization: authorization } : {}), 'Content-Type': 'application/json' },
      body: ['GET', 'DELETE'].includes(rule.method) ? undefined : '{}',
    });
    await response.arrayBuffer();
    return response.status;
  };

  it('covers every registered route', () => {
    const uncovered = registeredRoutes(service).filter((r) => !routeAccess(r.method, r.path));
    expect(uncovered).toEqual([]);
  });

  it('lists as served exactly the routes that are registered', () => {
    const registered = new Set(registeredRoutes(service).map((r) => `${r.method} ${r.path}`));
    const claimed = ROLE_MATRIX.filter((r) => r.served !== false).map((r) => `${r.method} ${r.path}`);
    expect(claimed.filter((r) => !registered.has(r))).toEqual([]);
  });

  it('enforces each route\'s least role, and refuses strangers, expired accounts and anonymous callers', async () => {
    const failures: string[] = [];
    const expect401or403 = (status: number) => status === 401 || status === 403;
    for (const registered of registeredRoutes(service)) {
      const rule = routeAccess(registered.method, registered.path) as RouteAccess;
      const label = `${rule.method} ${rule.path}`;
      if (rule.scheme === 'public' || rule.scheme === 'payload-token' || rule.scheme === 'signed-link') continue;
      if (rule.scheme === 'bearer') continue; // walked by the compliance tests
      const anonymous = await call(registered, undefined);
      if (anonymous !== 401) failures.push(`${label}: anonymous got ${anonymous}`);
      const stale = await call(registered, expired);
      if (stale !== 401) failures.push(`${label}: expired account got ${stale}`);
      if (rule.scheme === 'account') continue;
      for (const role of ROLES) {
        const status = await call(registered, callers[role]);
        const allowed = ROLES.indexOf(role) <= ROLES.indexOf(rule.role!);
        if (allowed && expect401or403(status)) failures.push(`${label}: ${role} was refused (${status})`);
        if (!allowed && status !== 403) failures.push(`${label}: ${role} got ${status}, expected 403`);
      }
      const foreign = await call(registered, callers.owner, foreignProjectId, foreignOrganizationId);
      if (foreign !== 403) failures.push(`${label}: owner on another organization's project got ${foreign}`);
      const stranger = await call(registered, outsider);
      if (stranger !== 403) failures.push(`${label}: another organization's owner got ${stranger}`);
    }
    expect(failures).toEqual([]);
  });
});
