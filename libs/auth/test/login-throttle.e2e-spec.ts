import { ServiceAccountsService } from '@analytics/accounts';
import { ProjectsService } from '@analytics/projects';
import { ServiceRootModule } from '@analytics/service-map';
import { createTestEnvironment, eventually, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';

const basic = (user: string, password = '') => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

const PER_IP = 3;
const PER_USERNAME = 5;
/** Long enough that a test's few hashed attempts (seconds each on a loaded machine) fall in one window. */
const WINDOW_SECONDS = 20;

/**
 * Failed logins are throttled per client address and per service-account username: past the limit,
 * every API family answers 429 with Retry-After without checking the credentials, until the window
 * ends. Clients are told apart by X-Forwarded-For, which the default TRUST_PROXY takes from loopback.
 */
describe('throttling of failed authentications', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  let organizationId: number;
  let projectId: number;
  let projectSecret: string;
  let nextAddress = 1;
  const accounts: Record<string, string> = {};

  /** A client address no other test uses. */
  const address = () => `198.51.100.${nextAddress++}`;
  /** Right credentials that this process has not verified yet (each account is used once). */
  const freshAccount = async (name: string) => {
    const { view, secret } = await service.app
      .get(ServiceAccountsService)
      .create(organizationId, null, { username: name, role: 'owner' });
    accounts[name] = view.account.username;
    return { username: view.account.username, authorization: basic(view.account.username, secret) };
  };
  const call = async (path: string, authorization: string, ip: string, init: RequestInit = {}) => {
    const response = await fetch(`${service.baseUrl}${path}`, {
      ...init,
      headers: { Authorization: authorization, 'X-Forwarded-For': ip, ...(init.headers as Record<string, string>) },
    });
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: (await response.json()) as Record<string, unknown>,
    };
  };
  const me = (authorization: string, ip: string) => call('/api/app/me', authorization, ip);
  let strangers = 0;
  /** A failed login from `ip`: a wrong secret for `username`, by default an unknown account of its own. */
  const fail = async (ip: string, username = `nobody-${strangers++}.service-account`) =>
    expect((await me(basic(username, 'wrong-secret'), ip)).status).toBe(401);

  beforeAll(async () => {
    environment = await createTestEnvironment({
      env: {
        AUTH_FAILURES_PER_IP: String(PER_IP),
        AUTH_FAILURES_PER_USERNAME: String(PER_USERNAME),
        AUTH_FAILURE_WINDOW_SECONDS: String(WINDOW_SECONDS),
      },
    });
    service = await startTestApp((config) => ServiceRootModule.forRoot(config), environment.config);
    const projects = service.app.get(ProjectsService);
    organizationId = (await projects.createOrganization('Throttled')).id;
    const created = await projects.createProject(organizationId, 'P');
    projectId = created.project.id;
    projectSecret = created.secret;
  });
  afterAll(async () => {
    await service?.close();
    await environment?.dispose();
  });

  it('refuses an address past its failures with 429 and Retry-After, right credentials included, in every API family', async () => {
    const ip = address();
    for (let i = 0; i < PER_IP; i++) await fail(ip);
    const right = await freshAccount('after-failures');
    const refused = await me(right.authorization, ip);
    expect(refused).toEqual({
      status: 429,
      retryAfter: expect.stringMatching(/^[1-9]\d*$/),
      body: { status: 'error', error: expect.stringContaining('too many failed authentications from this address') },
    });
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(WINDOW_SECONDS);

    const query = await call('/api/query/events/names?type=general', basic(projectSecret), ip);
    expect(query).toMatchObject({
      status: 429,
      retryAfter: expect.any(String),
      body: { request: expect.any(String), error: expect.stringContaining('too many failed authentications') },
    });
    const imported = await call(`/import?project_id=${projectId}`, basic(right.username, 'x'), ip, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '[]',
    });
    expect(imported).toMatchObject({
      status: 429,
      retryAfter: expect.any(String),
      body: { code: 429, error: expect.stringContaining('too many failed authentications') },
    });
    const importedBySecret = await call('/import', basic(projectSecret), ip, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '[]',
    });
    expect(importedBySecret.status).toBe(429);

    // Another address is not affected.
    expect((await me(right.authorization, address())).status).toBe(200);
  });

  it('still lets through credentials this process verified moments ago (no hashing to do), even from a refused address', async () => {
    const right = await freshAccount('busy-client');
    const ip = address();
    expect((await me(right.authorization, ip)).status).toBe(200);
    for (let i = 0; i < PER_IP; i++) await fail(ip);
    expect((await me(basic('nobody.again.service-account', 'again'), ip)).status).toBe(429);
    expect((await me(right.authorization, ip)).status).toBe(200);
  });

  it('counts failures for one username across addresses, and only for that username', async () => {
    const target = await freshAccount('targeted');
    for (let i = 0; i < PER_USERNAME; i++) await fail(address(), target.username);
    const refused = await me(target.authorization, address());
    expect(refused).toMatchObject({ status: 429, body: { error: expect.stringContaining('for this account') } });
    const other = await freshAccount('bystander');
    expect((await me(other.authorization, address())).status).toBe(200);
  });

  it('gives a success back only its own attempt: it does not reset the failures before it', async () => {
    const ip = address();
    for (let i = 0; i < PER_IP - 1; i++) await fail(ip);
    expect((await me((await freshAccount('succeeds-between')).authorization, ip)).status).toBe(200);
    await fail(ip);
    expect((await me((await freshAccount('refused-after')).authorization, ip)).status).toBe(429);
  });

  it('checks the same credentials arriving together once, so a burst of them is not taken for guessing', async () => {
    const right = await freshAccount('burst');
    const ip = address();
    const statuses = await Promise.all(
      Array.from({ length: PER_IP * 4 }, () => me(right.authorization, ip).then((answer) => answer.status)),
    );
    expect(statuses.every((status) => status === 200)).toBe(true);
  });

  it('lets the address try again once the window has passed', async () => {
    const ip = address();
    for (let i = 0; i < PER_IP; i++) await fail(ip);
    const right = await freshAccount('patient');
    expect((await me(right.authorization, ip)).status).toBe(429);
    await eventually(async () => expect((await me(right.authorization, ip)).status).toBe(200), {
      timeoutMs: (WINDOW_SECONDS + 5) * 1000,
      intervalMs: 500,
    });
  });

  it('does not count a request without credentials', async () => {
    const ip = address();
    for (let i = 0; i < PER_IP + 2; i++) {
      const response = await fetch(`${service.baseUrl}/api/app/me`, { headers: { 'X-Forwarded-For': ip } });
      await response.arrayBuffer();
      expect(response.status).toBe(401);
    }
    expect((await me((await freshAccount('after-anonymous')).authorization, ip)).status).toBe(200);
  });
});
