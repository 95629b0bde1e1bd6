import { eventually, spawnService, ServiceProcess } from '@analytics/testing';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

export const OWNER = 'backup-owner';
export const OWNER_SECRET = 'backup-owner-secret-0123456789';
const PROJECT_TOKEN = 'backup-project-token';
export const PROJECT_SECRET = 'backup-project-secret-0001';
const basic = (user: string, secret = '') => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
export const ownerAuth = basic(OWNER, OWNER_SECRET);

/** The embedded default on `port` with its data in `dataDir`, and known first-start credentials. */
export async function startStandalone(dataDir: string, port: number): Promise<ServiceProcess> {
  const service = spawnService('standalone', {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SHUTDOWN_TIMEOUT_MS: '60000',
    BOOTSTRAP_PROJECT_TOKEN: PROJECT_TOKEN,
    BOOTSTRAP_PROJECT_SECRET: PROJECT_SECRET,
    BOOTSTRAP_SERVICE_ACCOUNT_USERNAME: OWNER,
    BOOTSTRAP_SERVICE_ACCOUNT_SECRET: OWNER_SECRET,
    // The pipeline's destination is on loopback, and never contacted: no window of it is due.
    OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8',
  });
  await eventually(async () => expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200), {
    timeoutMs: 120_000,
  }).catch((error: Error) => {
    throw new Error(`${error.message}\n${service.output().slice(-3000)}`);
  });
  return service;
}

/** `npm run admin -- …` as a user runs it (the built CLI), with the given variables. */
export function admin(args: string[], env: Record<string, string>): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, [resolve(__dirname, '../../../dist/apps/admin/src/main.js'), ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
}

/** An HTTP client of one server, with the project secret unless told otherwise. */
export function client(port: number) {
  const base = `http://127.0.0.1:${port}`;
  return async (method: string, path: string, body?: unknown, authorization = basic(PROJECT_SECRET)) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { Authorization: authorization, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, text: await response.text() };
  };
}

export type Api = ReturnType<typeof client>;
const json = <T>(answer: { status: number; text: string }): T => {
  if (answer.status >= 300) throw new Error(`HTTP ${answer.status}: ${answer.text}`);
  return JSON.parse(answer.text) as T;
};

const day = () => new Date().toISOString().slice(0, 10);
const now = () => Math.floor(Date.now() / 1000);

/** What a user has in the installation: events by three routes, profiles, an account, a saved report, a pipeline. */
export async function seed(api: Api): Promise<{ account: string }> {
  const imported = Array.from({ length: 500 }, (_, i) => ({
    event: i % 3 ? 'Viewed' : 'Purchased',
    properties: {
      time: now() - i,
      distinct_id: `user-${i % 40}`,
      $insert_id: `import-${i}`,
      amount: i,
      tags: ['a', i],
    },
  }));
  json(await api('POST', '/import?strict=1', imported));
  const tracked = [{ event: 'Signed up', properties: { token: PROJECT_TOKEN, distinct_id: 'user-1', time: now() } }];
  expect((await api('POST', '/track?verbose=1', tracked)).text).toContain('"status":1');
  const engage = [
    { $token: PROJECT_TOKEN, $distinct_id: 'user-1', $set: { plan: 'pro', seats: 3 } },
    { $token: PROJECT_TOKEN, $distinct_id: 'user-2', $set_once: { first: 'yes' } },
  ];
  expect((await api('POST', '/engage?verbose=1', engage)).text).toContain('"status":1');
  const made = json<{ results: { token: string; username: string } }>(
    await api(
      'POST',
      '/api/app/organizations/1/service-accounts',
      { username: 'analyst-bot', role: 'analyst' },
      ownerAuth,
    ),
  );
  const bookmark = {
    name: 'Daily purchases',
    params: { events: [{ event: 'Purchased', math: 'total' }], last_days: 7, unit: 'day' },
  };
  json(await api('POST', '/api/app/projects/1/bookmarks', bookmark));
  const pipeline = {
    type: 's3-raw',
    s3_bucket: 'nowhere',
    s3_region: 'us-east-1',
    s3_endpoint: 'http://127.0.0.1:9',
    s3_force_path_style: 'true',
    s3_access_key_id: 'backup',
    s3_secret_access_key: 'backup-secret',
    trial: 'true',
    data_source: 'events',
    schema_type: 'monoschema',
  };
  json(await api('POST', '/api/2.0/nessie/pipeline/create?project_id=1', pipeline));
  return { account: basic(made.results.username, made.results.token) };
}

/** Everything {@link seed} left, as the API reads it back: two installations with equal snapshots hold the same data. */
export async function snapshot(api: Api, account: string): Promise<Record<string, string>> {
  const read = async (path: string, authorization?: string) => {
    const answer = await api('GET', path, undefined, authorization);
    expect(answer.status).toBe(200);
    return answer.text;
  };
  return {
    // Each line byte for byte; not their order, which follows how the events table's rows lie in parts (several
    // before, one per table after a restore) and does not keep to (event, day, user, time) across parts.
    export: (await read(`/api/2.0/export?project_id=1&from_date=${day()}&to_date=${day()}`))
      .split('\n')
      .sort()
      .join('\n'),
    // The profile query's page carries a session id and the time it was computed: its rows are what is compared.
    profiles: JSON.stringify(
      (JSON.parse(await read('/api/query/engage?project_id=1')) as { results: unknown }).results,
    ),
    account: await read('/api/app/me', account),
    bookmarks: await read('/api/app/projects/1/bookmarks'),
    pipelines: await read('/api/2.0/nessie/pipeline/jobs?project_id=1'),
  };
}
