import { ServiceAccountCredentials, ServiceAccountsService } from '@analytics/accounts';
import { ProjectsService } from '@analytics/projects';
import { ServiceRootModule } from '@analytics/service-map';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';

const basic = (user: string, password = '') => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** The default limits: 20 failures a minute for one username, 10 for one address. */
const LIMITS = { AUTH_FAILURES_PER_IP: '10', AUTH_FAILURES_PER_USERNAME: '20', AUTH_FAILURE_WINDOW_SECONDS: '60' };

/**
 * The reported attack: wrong secrets for a known username from ever new addresses (forged
 * X-Forwarded-For, which the default TRUST_PROXY takes from loopback) keep the username past its
 * limit. The account's own client, signed in and in use, must go on being served for longer than a
 * verified credential used to be remembered (30 s), while the guesses stay refused.
 */
describe('credentials in use under failed logins for their username', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  let organizationId: number;
  let nextAddress = 1;
  const address = () => `198.51.100.${nextAddress++}`;
  const me = async (authorization: string, ip: string) => {
    const response = await fetch(`${service.baseUrl}/api/app/me`, {
      headers: { Authorization: authorization, 'X-Forwarded-For': ip },
    });
    await response.arrayBuffer();
    return response.status;
  };
  const owner = async (name: string) => {
    const { view, secret } = await service.app
      .get(ServiceAccountsService)
      .create(organizationId, null, { username: name, role: 'owner' });
    return {
      id: view.account.id,
      username: view.account.username,
      authorization: basic(view.account.username, secret),
    };
  };

  beforeAll(async () => {
    environment = await createTestEnvironment({ env: LIMITS });
    service = await startTestApp((config) => ServiceRootModule.forRoot(config), environment.config);
    organizationId = (await service.app.get(ProjectsService).createOrganization('Attacked')).id;
  });
  afterAll(async () => {
    await service?.close();
    await environment?.dispose();
  });

  it('serves the owner for 35 s after 25 wrong logins for its username from 25 addresses, and refuses the guesses', async () => {
    const target = await owner('in-use');
    const home = address();
    const signedIn = Date.now();
    expect(await me(target.authorization, home)).toBe(200);

    const guesses: number[] = [];
    for (let i = 0; i < 25; i++) guesses.push(await me(basic(target.username, `guess-${i}`), address()));
    expect(guesses).toEqual([...Array<number>(20).fill(401), ...Array<number>(5).fill(429)]);

    // In use from home and, as a phone moving between networks, from new addresses; an account
    // change made in this process on the way (it has every remembered account re-read).
    const served: string[] = [];
    for (let use = 0; Date.now() - signedIn < 35_000; use++) {
      if (use === 0) service.app.get(ServiceAccountCredentials).forget();
      const from = use % 2 ? home : address();
      served.push(`${Math.round((Date.now() - signedIn) / 1000)} s: ${await me(target.authorization, from)}`);
      await new Promise((resolve) => setTimeout(resolve, 3000));
    }
    expect(served.filter((answer) => !answer.endsWith(': 200'))).toEqual([]);
    expect(await me(basic(target.username, 'one more guess'), address())).toBe(429);
  }, 180_000);

  it('still stops a deleted account at once, however much it was in use', async () => {
    const target = await owner('deleted-in-use');
    const other = await owner('deleter');
    const ip = address();
    expect(await me(target.authorization, ip)).toBe(200);
    const deleted = await fetch(
      `${service.baseUrl}/api/app/organizations/${organizationId}/service-accounts/${target.id}`,
      { method: 'DELETE', headers: { Authorization: other.authorization } },
    );
    expect(deleted.status).toBe(200);
    expect(await me(target.authorization, ip)).toBe(401);
  });
});
