import { ServiceAccountsService } from '@analytics/accounts';
import { ROLE_MATRIX, Role, ROLES, RouteAccess, routeAccess } from '@analytics/auth';
import { ProjectsService } from '@analytics/projects';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';
import { ServiceRootModule } from '@analytics/service-map';
import { ACCOUNT_CHANGES, accountChangesNotWalked } from './account-changes';
import { SampleCaller, SampleObjects, seedSampleObjects } from './sample-objects';
import { SAMPLE_REQUESTS, SampleRequest, routesWithoutSample, samplesWithoutRoute } from './sample-requests';

interface Registered {
  method: string;
  path: string;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
/** The unknown-route fallback and middleware mounts: `*path`, `{/*splat}`. */
const CATCH_ALL = /^\{?\/?\*/;

/**
 * Every route the running app registered, as Express holds them (middleware mounts, `*path` catch-alls, are not routes),
 * each once: Nest mounts a controller's route middleware (`forRoutes(Controller)`, the JSON body parser) as route layers
 * of the same method and path, ahead of the handler.
 */
function registeredRoutes(service: TestApp): Registered[] {
  const express = service.app.getHttpAdapter().getInstance() as {
    router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] };
  };
  const routes = express.router.stack
    .filter((layer) => layer.route)
    .flatMap((layer) =>
      Object.keys(layer.route!.methods)
        .map((method) => ({ method: method.toUpperCase(), path: layer.route!.path.replace(/(.)\/$/, '$1') }))
        .filter((r) => METHODS.has(r.method) && !CATCH_ALL.test(r.path)),
    );
  return [...new Map(routes.map((r) => [`${r.method} ${r.path}`, r])).values()];
}

const basic = (user: string, password = '') => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/**
 * The walk makes a few hundred queries, exports and dictionary writes a minute: far above the spec's limits, which other
 * tests check. Its expired account fails authentication from 127.0.0.1 (each time its credential is not remembered as
 * verified): the failed-login throttle must not answer 429 to the calls after it.
 */
const WALK_LIMITS = {
  QUERY_LIMIT_PER_HOUR: '100000',
  QUERY_LIMIT_PER_SECOND: '10000',
  EXPORT_LIMIT_PER_HOUR: '100000',
  EXPORT_LIMIT_PER_SECOND: '10000',
  SCHEMA_WRITES_PER_MINUTE: '100000',
  AUTH_FAILURES_PER_IP: '100000',
  AUTH_FAILURES_PER_USERNAME: '100000',
  // The walk's pipelines name a destination on loopback (never contacted: nothing is due).
  OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8',
};

interface Answer {
  status: number;
  body: string;
}

/**
 * Walks every registered route of every service (the standalone mounts them all) for each role, for
 * a foreign project, another organization, an expired account and no credentials; a route the role
 * matrix does not cover fails the test. Each call sends the route's valid sample request
 * (sample-requests.ts), so an allowed role must be served (2xx), not merely let past the guard.
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
  let objects: SampleObjects;

  beforeAll(async () => {
    environment = await createTestEnvironment({ env: WALK_LIMITS });
    service = await startTestApp((config) => ServiceRootModule.forRoot(config), environment.config);
    const projects = service.app.get(ProjectsService);
    const accounts = service.app.get(ServiceAccountsService);
    const home = await projects.createOrganization('Home');
    const foreign = await projects.createOrganization('Foreign');
    organizationId = home.id;
    foreignOrganizationId = foreign.id;
    const { project } = await projects.createProject(home.id, 'P');
    projectId = project.id;
    foreignProjectId = (await projects.createProject(foreign.id, 'F')).project.id;
    for (const role of ROLES) {
      const { view, secret } = await accounts.create(home.id, null, {
        username: `role-${role}`,
        role,
        projects: [{ id: projectId, role }],
      });
      callers[role] = basic(view.account.username, secret);
    }
    const expiry = Date.now() + 1500;
    const old = await accounts.create(home.id, null, {
      username: 'expiring',
      role: 'owner',
      expires: new Date(expiry),
    });
    expired = basic(old.view.account.username, old.secret);
    const stranger = await accounts.create(foreign.id, null, { username: 'stranger', role: 'owner' });
    outsider = basic(stranger.view.account.username, stranger.secret);
    objects = await seedSampleObjects({
      baseUrl: service.baseUrl,
      owner: callers.owner,
      projectId,
      organizationId,
      projectToken: project.token,
    });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiry + 100 - Date.now()))); // let the expiring account expire
  });
  afterAll(async () => {
    await service.close();
    await environment.dispose();
  });

  const sampleFor = (rule: Registered, caller: SampleCaller): SampleRequest | undefined =>
    SAMPLE_REQUESTS[`${rule.method} ${rule.path}`]?.(objects, caller);
  /** The path and query of the call: the sample's parameters (999999 where a route has no sample; the walk reports that). */
  const target = (
    rule: Registered,
    sample: SampleRequest | undefined,
    project = projectId,
    organization = organizationId,
  ) => {
    const path = rule.path
      .replace(':projectId', String(project))
      .replace(':organizationId', String(organization))
      .replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(String(sample?.params?.[name] ?? '999999')));
    const query = new URLSearchParams(sample?.query);
    if (/^\/(api\/query|api\/2\.0|import|lookup-tables)/.test(path)) query.set('project_id', String(project));
    return query.size ? `${path}?${query}` : path;
  };
  const call = async (
    rule: Registered,
    authorization: string | undefined,
    caller: SampleCaller,
    project?: number,
    organization?: number,
  ): Promise<Answer> => {
    const sample = sampleFor(rule, caller);
    const response = await fetch(`${service.baseUrl}${target(rule, sample, project, organization)}`, {
      method: rule.method,
      headers: {
        ...(authorization ? { Authorization: authorization } : {}),
        // A string body is sent as it is (a lookup table's CSV), anything else as JSON.
        'Content-Type': typeof sample?.body === 'string' ? 'text/csv' : 'application/json',
      },
      body: ['GET', 'DELETE'].includes(rule.method)
        ? undefined
        : typeof sample?.body === 'string'
          ? sample.body
          : JSON.stringify(sample?.body ?? {}),
    });
    return { status: response.status, body: await response.text() };
  };
  /** Why an allowed caller was not served, if it was not: anything but a 2xx (and what the sample checks in the body). */
  const notServed = (sample: SampleRequest | undefined, answer: Answer) => {
    if (!sample) return 'has no sample request in test/access/sample-requests.ts';
    if (sample.refusedHere) return answer.status === sample.refusedHere.status ? undefined : `got ${answer.status}`;
    if (answer.status < 200 || answer.status > 299) return `got ${answer.status}`;
    const refusal = sample.refusal?.(answer.body);
    return refusal && `got ${answer.status}, but ${refusal}`;
  };
  /** Walk order: samples marked `last` destroy what others read (the whole dictionary), so they go after every other route. */
  const walkOrder = (routes: Registered[]) => {
    const last = (rule: Registered) => (sampleFor(rule, 'owner')?.last ? 1 : 0);
    return [...routes].sort((a, b) => last(a) - last(b));
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

  it('has a valid sample request for every served route it walks with credentials', () => {
    expect(routesWithoutSample()).toEqual([]);
    expect(samplesWithoutRoute()).toEqual([]);
  });

  it('serves each route to the roles it allows, refuses the others, strangers, expired accounts and anonymous callers', async () => {
    const failures: string[] = [];
    const expect401or403 = (status: number) => status === 401 || status === 403;
    /** An allowed role must get a 2xx; a sample marked as a known product bug is held to it only once the bug is fixed. */
    const expectServed = (registered: Registered, label: string, role: Role, answer: Answer) => {
      const sample = sampleFor(registered, role);
      const why = notServed(sample, answer);
      if (sample?.knownFailure) {
        if (!why)
          failures.push(
            `${label}: ${role} was served, but the sample is marked as a known failure (${sample.knownFailure}): remove the mark`,
          );
        return;
      }
      if (why)
        failures.push(
          `${label}: ${role} ${why} for ${registered.method} ${target(registered, sample)}: ${answer.body.slice(0, 300)}`,
        );
    };
    for (const registered of walkOrder(registeredRoutes(service))) {
      const rule = routeAccess(registered.method, registered.path) as RouteAccess;
      const label = `${rule.method} ${rule.path}`;
      if (rule.scheme === 'public' || rule.scheme === 'payload-token' || rule.scheme === 'signed-link') continue;
      if (rule.scheme === 'bearer') continue; // walked by the compliance tests
      const anonymous = (await call(registered, undefined, 'outsider')).status;
      if (anonymous !== 401) failures.push(`${label}: anonymous got ${anonymous}`);
      const stale = (await call(registered, expired, 'outsider')).status;
      if (stale !== 401) failures.push(`${label}: expired account got ${stale}`);
      if (rule.scheme === 'account') {
        // Any account may call these; a route that names a role (creating an organization) is walked with that role and those above.
        for (const role of ROLES.filter((r) => !rule.role || ROLES.indexOf(r) <= ROLES.indexOf(rule.role))) {
          expectServed(registered, label, role, await call(registered, callers[role], role));
        }
        continue;
      }
      for (const role of ROLES) {
        const answer = await call(registered, callers[role], role);
        const { status } = answer;
        const allowed = ROLES.indexOf(role) <= ROLES.indexOf(rule.role!);
        if (allowed && expect401or403(status)) failures.push(`${label}: ${role} was refused (${status})`);
        else if (allowed) expectServed(registered, label, role, answer);
        if (!allowed && status !== 403) failures.push(`${label}: ${role} got ${status}, expected 403`);
      }
      const foreign = (await call(registered, callers.owner, 'outsider', foreignProjectId, foreignOrganizationId))
        .status;
      if (foreign !== 403) failures.push(`${label}: owner on another organization's project got ${foreign}`);
      const stranger = (await call(registered, outsider, 'outsider')).status;
      if (stranger !== 403) failures.push(`${label}: another organization's owner got ${stranger}`);
    }
    expect(failures).toEqual([]);
  }, 600_000); // a few hundred requests, each a scrypt after every credential-cache flush: minutes on a loaded machine

  /** Sends an account-changing request (ACCOUNT_CHANGES) about `serviceAccountId` as `caller`. */
  const changeAccount = async (key: string, serviceAccountId: number, caller: Role): Promise<Answer> => {
    const [method, path] = key.split(' ');
    const sample = ACCOUNT_CHANGES[key]({ serviceAccountId, projectId });
    const filled = path
      .replace(':organizationId', String(organizationId))
      .replace(/:([A-Za-z]+)/g, (_, name: string) => String(sample.params?.[name]));
    const response = await fetch(`${service.baseUrl}${filled}`, {
      method,
      headers: { Authorization: callers[caller], 'Content-Type': 'application/json' },
      body: method === 'DELETE' ? undefined : JSON.stringify(sample.body),
    });
    return { status: response.status, body: await response.text() };
  };

  it('never lets a caller demote, remove or delete an account that holds a role above its own, in the organization or on any project', async () => {
    expect(accountChangesNotWalked()).toEqual([]);
    const accounts = service.app.get(ServiceAccountsService);
    const elsewhere = (await service.app.get(ProjectsService).createProject(organizationId, 'Elsewhere')).project.id;
    const owners: Record<string, { role: Role; projects: { id: number; role: Role }[] }> = {
      'an organization owner': { role: 'owner', projects: [] },
      'an owner of the project': { role: 'consumer', projects: [{ id: projectId, role: 'owner' }] },
      'an owner of another project': {
        role: 'consumer',
        projects: [
          { id: projectId, role: 'consumer' },
          { id: elsewhere, role: 'owner' },
        ],
      },
    };
    const failures: string[] = [];
    let made = 0;
    for (const key of Object.keys(ACCOUNT_CHANGES)) {
      for (const [label, target] of Object.entries(owners)) {
        const { view } = await accounts.create(organizationId, null, { username: `target-${made++}`, ...target });
        const refused = await changeAccount(key, view.account.id, 'admin');
        if (refused.status !== 403 || !refused.body.includes('"status":"error"'))
          failures.push(`${key}: admin on ${label} got ${refused.status} ${refused.body.slice(0, 200)}`);
        const after = await accounts.get(organizationId, view.account.id).catch(() => undefined);
        const roles = (projects?: { id: number; role: string }[]) =>
          JSON.stringify(projects?.map((p) => `${p.id}:${p.role}`).sort());
        if (roles(after?.projects) !== roles(view.projects))
          failures.push(`${key}: the refused admin changed ${label}: ${JSON.stringify(after?.projects)}`);
        const served = await changeAccount(key, view.account.id, 'owner');
        if (served.status !== 200)
          failures.push(`${key}: owner on ${label} got ${served.status} ${served.body.slice(0, 200)}`);
      }
      // An admin still changes an account that holds no more than it does.
      const peer = await accounts.create(organizationId, null, {
        username: `peer-${made++}`,
        role: 'admin',
        projects: [{ id: projectId, role: 'analyst' }],
      });
      const served = await changeAccount(key, peer.view.account.id, 'admin');
      if (served.status !== 200)
        failures.push(`${key}: admin on another admin got ${served.status} ${served.body.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it("keeps an organization's last owner: deleting it answers 409, deleting one of two owners is served", async () => {
    const accounts = service.app.get(ServiceAccountsService);
    const solo = await service.app.get(ProjectsService).createOrganization('Solo');
    const first = await accounts.create(solo.id, null, { username: 'solo-owner', role: 'owner' });
    const remove = (id: number) =>
      fetch(`${service.baseUrl}/api/app/organizations/${solo.id}/service-accounts/${id}`, {
        method: 'DELETE',
        headers: { Authorization: basic(first.view.account.username, first.secret) },
      });
    const refused = await remove(first.view.account.id);
    expect({ status: refused.status, body: await refused.json() }).toEqual({
      status: 409,
      body: { status: 'error', error: expect.stringContaining('last owner') },
    });
    const second = await accounts.create(solo.id, null, { username: 'solo-second', role: 'owner' });
    expect((await remove(second.view.account.id)).status).toBe(200);
    expect((await remove(first.view.account.id)).status).toBe(409);
  });
});
