import { ServiceAccountsService } from '@analytics/accounts';
import { ProjectsService } from '@analytics/projects';
import { ServiceRootModule } from '@analytics/service-map';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';

/**
 * One server with every service (as `npm start` runs them), seeded the way a Mixpanel project looks
 * to an ETL connector: events over the last days, more user profiles than one page holds, revenue
 * appended by the SDKs' track_charge, a saved funnel, a saved cohort and an annotation. The replay
 * specs send each connector's requests to it and parse the answers the way the connector does.
 */

export const DAY_MS = 86_400_000;
/** More than Airbyte's page of 1000 and four of Singer's pages of 250. */
export const PROFILES = 1005;
export const PRO_PROFILES = Math.ceil(PROFILES / 2);
/** The `$transactions` appended: [profile index, amount, days ago]. */
export const CHARGES: readonly [number, number, number][] = [
  [0, 19.99, 3],
  [0, 10, 2],
  [2, 5.5, 2],
];

export const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const daysAgo = (days: number) => day(Date.now() - days * DAY_MS);
export const profileId = (i: number) => `user-${String(i).padStart(4, '0')}`;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

export interface ReplayServer {
  baseUrl: string;
  projectId: number;
  secret: string;
  token: string;
  /** A consumer service account on the project: `username:secret`. */
  serviceAccount: { username: string; secret: string };
  funnelId: number;
  cohortId: number;
  /** The event times seeded, in unix seconds. */
  eventTimes: number[];
  request(path: string, init?: { method?: string; headers?: Record<string, string>; body?: string }): Promise<Answer>;
  close(): Promise<void>;
}

/** HTTP Basic exactly as written: some connectors send `base64(secret)` with no colon. */
export const basicHeader = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

export async function startReplayServer(env: Record<string, string> = {}): Promise<ReplayServer> {
  const environment: TestEnvironment = await createTestEnvironment({
    env: { QUERY_LIMIT_PER_HOUR: '100000', QUERY_LIMIT_PER_SECOND: '1000', EXPORT_LIMIT_PER_SECOND: '1000', ...env },
  });
  const service: TestApp = await startTestApp((config) => ServiceRootModule.forRoot(config), environment.config);
  try {
    return await seeded(service, environment);
  } catch (error) {
    await service.close();
    await environment.dispose();
    throw error;
  }
}

async function seeded(service: TestApp, environment: TestEnvironment): Promise<ReplayServer> {
  const projects = service.app.get(ProjectsService);
  const organization = await projects.createOrganization('Connectors');
  const created = await projects.createProject(organization.id, 'Replayed');
  const { secret } = created;
  const token = created.project.token;
  const projectId = created.project.id;
  const account = await service.app.get(ServiceAccountsService).create(organization.id, null, {
    username: 'etl',
    role: 'consumer',
    projects: [{ id: projectId, role: 'consumer' }],
  });

  const request: ReplayServer['request'] = async (path, init = {}) => {
    const response = await fetch(`${service.baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: init.headers,
      body: init.body,
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };
  const send = async (path: string, body: string, contentType: string, expected: (text: string) => boolean) => {
    const answer = await request(path, {
      method: 'POST',
      headers: { Authorization: basicHeader(`${secret}:`), 'Content-Type': contentType },
      body,
    });
    if (answer.status !== 200 || !expected(answer.text))
      throw new Error(`seeding ${path}: ${answer.status} ${answer.text}`);
  };
  const app = (path: string, body: unknown) =>
    request(`/api/app/projects/${projectId}${path}`, {
      method: 'POST',
      headers: { Authorization: basicHeader(`${secret}:`), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }).then((answer) => {
      if (answer.status !== 201 && answer.status !== 200) throw new Error(`seeding ${path}: ${answer.text}`);
      return JSON.parse(answer.text) as { results: { id?: number; funnel_id?: number } };
    });

  const now = Math.floor(Date.now() / 1000);
  const eventTimes: number[] = [];
  const events = Array.from({ length: 10 }, (_, i) => {
    // One to five days ago, each event at its own second (an incremental export's cursor names one).
    const signedUp = now - (5 - (i % 5)) * 86_400 - 3600 + i;
    eventTimes.push(signedUp, signedUp + 600);
    return [
      {
        event: 'Signed up',
        properties: { time: signedUp, distinct_id: profileId(i), $insert_id: `s${i}`, plan: 'pro' },
      },
      {
        event: 'Purchased',
        properties: { time: signedUp + 600, distinct_id: profileId(i), $insert_id: `p${i}`, amount: 5 },
      },
    ];
  }).flat();
  await send('/import?strict=1', JSON.stringify(events), 'application/json', (text) => text.includes('"OK"'));

  const profiles = Array.from({ length: PROFILES }, (_, i) => ({
    $token: token,
    $distinct_id: profileId(i),
    $set: { $name: `User ${i}`, $email: `user${i}@example.com`, plan: i % 2 === 0 ? 'pro' : 'free', visits: i },
  }));
  // track_charge, as the SDKs send it: an $append of the transaction to $transactions.
  const charges = CHARGES.map(([i, amount, ago]) => ({
    $token: token,
    $distinct_id: profileId(i),
    $append: { $transactions: { $amount: amount, $time: `${daysAgo(ago)}T10:00:00` } },
  }));
  for (const batch of [profiles, charges]) {
    const form = `data=${encodeURIComponent(JSON.stringify(batch))}`;
    await send('/engage?verbose=1', form, 'application/x-www-form-urlencoded', (text) => text.includes('"status":1'));
  }

  const funnel = await app('/funnels', {
    name: 'Signup to purchase',
    steps: [{ event: 'Signed up' }, { event: 'Purchased' }],
    length: 7,
    length_unit: 'day',
  });
  const cohort = await app('/cohorts', { name: 'Pro users', definition: { where: 'properties["plan"] == "pro"' } });
  await app('/annotations', { date: `${daysAgo(2)} 12:00:00`, description: 'Launched v2' });

  return {
    baseUrl: service.baseUrl,
    projectId,
    secret,
    token,
    serviceAccount: { username: account.view.account.username, secret: account.secret },
    funnelId: funnel.results.funnel_id!,
    cohortId: cohort.results.id!,
    eventTimes,
    request,
    close: async () => {
      await service.close();
      await environment.dispose();
    },
  };
}
