import {
  eventually,
  freePort,
  ServiceProcess,
  spawnService,
  temporaryDirectory,
  uniqueTopicPrefix,
} from '@analytics/testing';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { GoodProject } from './good-traffic';
import type { FuzzTargets } from './hostile-requests';

/** The standalone under fuzz: its process, its address and the credentials it was bootstrapped with. */
export interface Target {
  mode: 'embedded' | 'kafka';
  baseUrl: string;
  port: number;
  pid: number;
  service: ServiceProcess;
  good: GoodProject;
  /** The process is the one we started and is still running. */
  alive(): boolean;
  healthy(): Promise<boolean>;
  /** Sets the good project's identity mode (allowed while it has no events); answers the mode it has. */
  setIdentityMerge(mode: 'original' | 'simplified'): Promise<string>;
  stop(): Promise<number | null>;
}

const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;

/**
 * Starts the built standalone (`dist/apps/standalone`) on a free port of 127.0.0.1 with fresh storage
 * in a temporary directory, errors-only JSON logs (kept for the report), and known credentials.
 * Rate limits are lifted so hostile reads reach the query code rather than a 429; query
 * concurrency keeps its default so 429s still happen under load.
 */
export async function startTarget(kafkaBrokers?: string): Promise<Target> {
  const dir = temporaryDirectory('fuzz');
  const port = await freePort();
  const good = {
    secret: randomBytes(16).toString('hex'),
    token: randomBytes(16).toString('hex'),
    owner: 'fuzz.owner',
    ownerSecret: randomBytes(16).toString('hex'),
  };
  const env: Record<string, string> = {
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: join(dir.path, 'data'),
    LOG_LEVEL: process.env.FUZZ_LOG_LEVEL ?? 'error',
    BOOTSTRAP_PROJECT_SECRET: good.secret,
    BOOTSTRAP_PROJECT_TOKEN: good.token,
    BOOTSTRAP_SERVICE_ACCOUNT_USERNAME: good.owner,
    BOOTSTRAP_SERVICE_ACCOUNT_SECRET: good.ownerSecret,
    QUERY_LIMIT_PER_HOUR: '1000000000',
    QUERY_LIMIT_PER_SECOND: '1000000000',
    EXPORT_LIMIT_PER_HOUR: '1000000000',
    EXPORT_LIMIT_PER_SECOND: '1000000000',
    SCHEMA_WRITES_PER_MINUTE: '1000000',
    // Hostile Authorization headers are failed logins from 127.0.0.1: the throttle would refuse every request after them.
    AUTH_FAILURES_PER_IP: '1000000',
    AUTH_FAILURES_PER_USERNAME: '1000000',
    QUERY_MAX_EXECUTION_SECONDS: '20',
    ...(kafkaBrokers
      ? {
          KAFKA_BROKERS: kafkaBrokers,
          KAFKA_TOPIC_PREFIX: uniqueTopicPrefix(),
          KAFKA_EVENTS_PARTITIONS: '2',
          KAFKA_PROFILES_PARTITIONS: '2',
        }
      : {}),
  };
  const service = spawnService('standalone', env);
  const baseUrl = `http://127.0.0.1:${port}`;
  const pid = service.child.pid!;
  const alive = () => {
    if (service.child.exitCode !== null || service.child.signalCode !== null) return false;
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const healthy = async () => {
    try {
      const response = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(15_000) });
      await response.arrayBuffer();
      return response.status === 200;
    } catch {
      return false;
    }
  };
  try {
    const ready = eventually(
      async () => {
        const response = await fetch(`${baseUrl}/readyz`);
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`not ready: ${response.status}`);
      },
      { timeoutMs: 180_000, intervalMs: 250 },
    );
    const exited = service.exited.then((code) => {
      throw new Error(`the standalone exited (${code}) during start:\n${service.output().slice(-4000)}`);
    });
    exited.catch(() => undefined); // it rejects again at the normal stop, long after start
    await Promise.race([ready, exited]);
  } catch (error) {
    await service.stop();
    dir.remove();
    throw error;
  }
  // Ready can come before the first start has set the bootstrap account's secret: poll until it works.
  const me = await eventually(
    () => api<{ projects: { id: number }[] }>(baseUrl, basic(good.owner, good.ownerSecret), 'GET', '/api/app/me'),
    { timeoutMs: 30_000, intervalMs: 250 },
  ).catch(async (error: unknown) => {
    await service.stop();
    dir.remove();
    throw error;
  });
  return {
    mode: kafkaBrokers ? 'kafka' : 'embedded',
    baseUrl,
    port,
    pid,
    service,
    good: {
      id: me.projects[0].id,
      token: good.token,
      secret: good.secret,
      ownerBasic: basic(good.owner, good.ownerSecret),
    },
    alive,
    healthy,
    async setIdentityMerge(identityMerge) {
      const project = await api<{ identity_merge: string }>(
        baseUrl,
        basic(good.owner, good.ownerSecret),
        'PATCH',
        `/api/app/projects/${me.projects[0].id}`,
        { identity_merge: identityMerge },
      );
      return project.identity_merge;
    },
    async stop() {
      const running = service.child.exitCode === null && service.child.signalCode === null;
      const code = await service.stop(20_000);
      if (running) dir.remove();
      return code;
    },
  };
}

async function api<T>(
  baseUrl: string,
  authorization: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (JSON.parse(text) as { results: T }).results;
}

/**
 * A sandbox organization for the hostile traffic to the management, query and export APIs: its
 * owner may delete, rotate and reconfigure whatever it finds there without touching the good
 * traffic's project. A few throwaway service accounts give the `:serviceAccountId` routes real targets.
 */
export async function createSandbox(target: Target): Promise<FuzzTargets['sandbox']> {
  const organization = await api<{ id: number; owner: { username: string; token: string } }>(
    target.baseUrl,
    target.good.ownerBasic,
    'POST',
    '/api/app/organizations',
    { name: `fuzz sandbox ${Date.now()}` },
  );
  const owner = basic(organization.owner.username, organization.owner.token);
  const project = await api<{ id: number; token: string }>(
    target.baseUrl,
    owner,
    'POST',
    `/api/app/organizations/${organization.id}/projects`,
    { name: 'sandbox' },
  );
  const serviceAccountIds: number[] = [];
  for (const role of ['consumer', 'analyst', 'admin']) {
    const account = await api<{ id: number }>(
      target.baseUrl,
      owner,
      'POST',
      `/api/app/organizations/${organization.id}/service-accounts`,
      { username: `victim-${role}`, role },
    );
    serviceAccountIds.push(account.id);
  }
  const oauth = await api<{ token: string }>(
    target.baseUrl,
    owner,
    'POST',
    `/api/app/organizations/${organization.id}/oauth-tokens`,
    { expires_in: 7_776_000 },
  );
  const sandbox = {
    organizationId: organization.id,
    projectId: project.id,
    basic: owner,
    token: project.token,
    bearer: oauth.token,
    serviceAccountIds,
    reports: { bookmark: 0, funnel: 0, cohort: 0 },
  };
  await ensureReports(target, sandbox);
  return sandbox;
}

const REPORTS = {
  bookmark: [
    'bookmarks',
    { name: 'fuzz', params: { events: [{ event: 'fuzz_hostile', math: 'total' }], last_days: 7, unit: 'day' } },
  ],
  funnel: [
    'funnels',
    { name: 'fuzz', steps: [{ event: 'fuzz_hostile' }, { event: 'fuzz_good_import' }], length: 7, length_unit: 'day' },
  ],
  cohort: [
    'cohorts',
    { name: 'fuzz', description: '', definition: { behavior: { event: 'fuzz_hostile', min_count: 1, last_days: 7 } } },
  ],
} as const;

/**
 * A saved insights report, funnel and cohort in the sandbox, so that `bookmark_id`, `funnel_id` and
 * the reports' `:id` routes reach the query code; recreated when hostile requests deleted them.
 */
export async function ensureReports(target: Target, sandbox: FuzzTargets['sandbox']): Promise<void> {
  for (const kind of ['bookmark', 'funnel', 'cohort'] as const) {
    const [path, body] = REPORTS[kind];
    const base = `/api/app/projects/${sandbox.projectId}/${path}`;
    const existing = sandbox.reports[kind]
      ? await fetch(`${target.baseUrl}${base}/${sandbox.reports[kind]}`, {
          headers: { authorization: sandbox.basic },
        }).catch(() => undefined)
      : undefined;
    await existing?.arrayBuffer();
    if (existing?.status === 200) continue;
    const created = await api<{ id?: number; funnel_id?: number }>(
      target.baseUrl,
      sandbox.basic,
      'POST',
      base,
      body,
    ).catch(() => undefined);
    if (created) sandbox.reports[kind] = created.id ?? created.funnel_id ?? 0;
  }
}

/** Whether the sandbox owner still gets in (hostile traffic may have deleted or expired it). */
export async function sandboxUsable(target: Target, sandbox: FuzzTargets['sandbox']): Promise<boolean> {
  const response = await fetch(`${target.baseUrl}/api/app/me`, { headers: { authorization: sandbox.basic } }).catch(
    () => undefined,
  );
  await response?.arrayBuffer();
  return response?.status === 200;
}
