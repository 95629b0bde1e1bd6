import {
  createTestEnvironment,
  eventually,
  freePort,
  ServiceProcess,
  spawnService,
  TestEnvironment,
} from '@analytics/testing';
import { Client } from 'pg';
import { basic, bearer, event, nowSeconds } from '../../libs/compliance/test/compliance-harness';

const OWNER = basic('owner', 'owner-secret-000000001');
const PROJECT_TOKEN = 'killtest0000000000000000000000ab';
const PROJECT_SECRET = 'killtest-secret-00000000000000ab';
const DELETIONS = '/api/app/data-deletions/v3.0';

/**
 * The standalone as its own process, SIGKILLed while a deletion is half done: ClickHouse's rows are
 * gone, the Postgres profile delete waits on a row lock this test holds. A second process on the
 * same engines picks the job up once its lease lapses and finishes it, once.
 */
describe('a compliance worker killed mid-deletion (real processes, chDB and the Postgres server)', () => {
  let environment: TestEnvironment;
  let running: ServiceProcess | undefined;
  let base = '';

  async function start(): Promise<void> {
    const port = await freePort();
    running = spawnService('standalone', { ...environment.env, PORT: String(port) });
    base = `http://127.0.0.1:${port}`;
    const process = running;
    await eventually(
      async () => {
        if (process.child.exitCode !== null)
          throw new Error(`standalone exited ${process.child.exitCode}:\n${process.output()}`);
        // Ready once the bootstrap owner can sign in.
        const me = await fetch(`${base}/api/app/me`, { headers: { Authorization: OWNER } });
        if (me.status !== 200) throw new Error(`/api/app/me answered ${me.status}`);
      },
      { timeoutMs: 60_000 },
    );
  }

  async function call(
    method: string,
    path: string,
    init: { authorization?: string; json?: unknown; form?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = {};
    if (init.authorization) headers.Authorization = init.authorization;
    let body: string | undefined;
    if (init.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(`${base}${path}`, { method, headers, body });
    const text = await response.text();
    return {
      status: response.status,
      text,
      body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : undefined,
    };
  }

  const importEvents = async (events: object[]) => {
    const answer = await call('POST', '/import?strict=1', { authorization: basic(PROJECT_SECRET), json: events });
    expect(answer.status).toBe(200);
  };

  /** The project's events as the raw export gives them (deduplicated), as insert ids. */
  const exportedInsertIds = async (distinctId: string) => {
    const day = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const where = `properties["distinct_id"] == "${distinctId}"`;
    const answer = await call(
      'GET',
      `/api/2.0/export?from_date=${yesterday}&to_date=${day}&where=${encodeURIComponent(where)}`,
      { authorization: basic(PROJECT_SECRET) },
    );
    expect(answer.status).toBe(200);
    return answer.text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line).properties.$insert_id as string)
      .sort();
  };

  beforeAll(async () => {
    environment = await createTestEnvironment({
      postgres: 'server',
      env: {
        BOOTSTRAP_SERVICE_ACCOUNT_USERNAME: 'owner',
        BOOTSTRAP_SERVICE_ACCOUNT_SECRET: 'owner-secret-000000001',
        BOOTSTRAP_PROJECT_TOKEN: PROJECT_TOKEN,
        BOOTSTRAP_PROJECT_SECRET: PROJECT_SECRET,
        // A killed worker's job lapses 10 s after its last lease renewal; leases are checked every second.
        COMPLIANCE_HEARTBEAT_SECONDS: '10',
        JOBS_EXPIRY_CHECK_SECONDS: '1',
        LOG_LEVEL: 'warn',
      },
    });
  });

  afterAll(async () => {
    await running?.stop();
    await environment?.dispose();
  });

  it('finishes the deletion after a restart: the ids are gone everywhere, later events stay, one completed attempt after the killed one', async () => {
    await start();
    const me = await call('GET', '/api/app/me', { authorization: OWNER });
    const organizationId = Number(me.body.results.organization.id);
    const projectId = Number(me.body.results.projects[0].id);
    const issued = await call('POST', `/api/app/organizations/${organizationId}/oauth-tokens`, {
      authorization: OWNER,
      json: { expires_in: 3600 },
    });
    expect(issued.status).toBe(201);
    const oauth = bearer(issued.body.results.token);

    await importEvents([event('alice', 'a1'), event('alice', 'a2', {}, 'Bought'), event('bob', 'b1')]);
    const engage = await call('POST', '/engage?verbose=1', {
      form: {
        data: JSON.stringify([{ $token: PROJECT_TOKEN, $distinct_id: 'alice', $set: { $email: 'alice@example.com' } }]),
      },
    });
    expect(engage.text).toContain('"status":1');

    // Hold alice's profile row: the worker's Postgres delete (after the ClickHouse ones) waits on it.
    const lock = new Client({ connectionString: environment.env.DATABASE_URL });
    await lock.connect();
    try {
      await lock.query('begin');
      const locked = await lock.query(
        "select 1 from profiles where project_id = $1 and profile_id = 'alice' and group_key = '' for update",
        [projectId],
      );
      expect(locked.rowCount).toBe(1);

      const created = await call('POST', `${DELETIONS}?token=${PROJECT_TOKEN}`, {
        authorization: oauth,
        json: { distinct_ids: ['alice'] },
      });
      expect(created.status).toBe(201);
      const taskId = created.body.results.task_id as string;
      const status = async () =>
        (await call('GET', `${DELETIONS}/${taskId}?token=${PROJECT_TOKEN}`, { authorization: oauth })).body.results
          .status as string;

      // Mid-deletion: STARTED, and the worker's delete of the profile is blocked on the lock. Found by
      // who blocks it, not by its text: on a busy machine pg_stat_activity showed the waiting backend
      // as `idle` with its previous statement's text (transactionid wait), which a text match missed.
      await eventually(async () => expect(await status()).toBe('STARTED'), { timeoutMs: 30_000 });
      await eventually(
        async () => {
          const activity = await lock.query(
            'select pid, state, wait_event_type, wait_event, left(query, 60) as query from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and pg_backend_pid() = any(pg_blocking_pids(pid))',
          );
          if (activity.rows.length !== 1)
            throw new Error(`the worker's profile delete is not blocked yet: ${JSON.stringify(activity.rows)}`);
        },
        { timeoutMs: 90_000, intervalMs: 250 },
      );
      // Acknowledged after the request: kept by the deletion.
      await importEvents([event('alice', 'a-late', {}, 'Played', nowSeconds())]);

      running!.child.kill('SIGKILL');
      await running!.exited;
      // The killed process's blocked statement must not finish the job behind the restart's back.
      await lock.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and pg_backend_pid() = any(pg_blocking_pids(pid))',
      );
      await lock.query('rollback');
      const profile = await lock.query(
        "select count(*)::int as n from profiles where project_id = $1 and profile_id = 'alice'",
        [projectId],
      );
      expect(profile.rows[0].n).toBe(1);

      // Still STARTED with the profile in place: the killed attempt did not finish.
      const record = await lock.query('select status from compliance_jobs where id = $1', [taskId]);
      expect(record.rows).toEqual([{ status: 'STARTED' }]);
      await start();
      await eventually(async () => expect(await status()).toBe('SUCCESS'), { timeoutMs: 90_000, intervalMs: 500 });

      const after = await lock.query(
        "select count(*)::int as n from profiles where project_id = $1 and profile_id = 'alice' and group_key = ''",
        [projectId],
      );
      expect(after.rows[0].n).toBe(0);
      expect(await exportedInsertIds('alice')).toEqual(['a-late']);
      expect(await exportedInsertIds('bob')).toEqual(['b1']);
      // One work item, completed by a retry after the killed attempt's lease lapsed.
      const attempts = await lock.query(
        "select state, retry_count from pgboss.job where name = 'compliance.data-deletion' and data->>'id' = $1",
        [taskId],
      );
      expect(attempts.rows).toEqual([{ state: 'completed', retry_count: expect.any(Number) }]);
      expect(attempts.rows[0].retry_count).toBeGreaterThanOrEqual(1);
    } finally {
      await lock.end();
    }
  }, 240_000);
});
