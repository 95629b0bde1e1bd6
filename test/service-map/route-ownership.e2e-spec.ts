import { ROLE_MATRIX, RouteAccess } from '@analytics/auth';
import { SERVICE_NAMES } from '@analytics/config';
import {
  createTestDatabase,
  eventually,
  freePort,
  postgresServerAvailable,
  ServiceProcess,
  spawnService,
  temporaryDirectory,
  testKafkaBrokers,
  TestResource,
  uniqueTopicPrefix,
} from '@analytics/testing';
import { join } from 'node:path';

/**
 * The service map, proved on the built apps: every thin app runs as its own process (as its container
 * would) beside the standalone, and every served route of the role matrix answers (anything but 404)
 * on the app that owns it and on the standalone, and 404 in its family's error shape everywhere else.
 * The ingress side (each route's host sends it to its owner) is checked on the rendered manifests in
 * test/deploy.
 */
const APPS = ['standalone', ...SERVICE_NAMES] as const;
type App = (typeof APPS)[number];

interface RunningApp {
  app: App;
  process: ServiceProcess;
  url: string;
}

/** A concrete request for a route pattern: ids that exist nowhere, and a project id where the family takes one. */
function concretePath(route: RouteAccess): string {
  const path = route.path.replace(/[:*][A-Za-z]+/g, '1');
  return /^\/(api\/query|api\/2\.0|import)/.test(path) ? `${path}?project_id=1` : path;
}

const NEST_DEFAULT_404 = /"message":"Cannot (GET|POST|PUT|PATCH|DELETE) /;

async function ask(base: string, method: string, path: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
    signal: AbortSignal.timeout(20_000),
  });
  return { status: response.status, body: await response.text() };
}

describe('the service map: every route is served where the ingress sends it', () => {
  const running: RunningApp[] = [];
  const resources: TestResource[] = [];
  const directories: { remove(): void }[] = [];
  let env: Record<string, string>;

  async function start(app: App): Promise<RunningApp> {
    const directory = temporaryDirectory(`service-map-${app}`);
    directories.push(directory);
    const port = await freePort();
    const process = spawnService(app, {
      ...env,
      // chDB opens a data directory from one process only; each app gets its own.
      CLICKHOUSE_URL: `chdb:${join(directory.path, 'clickhouse')}`,
      DATA_DIR: join(directory.path, 'data'),
      DATABASE_URL: env.DATABASE_URL ?? 'pglite:memory:',
      PORT: String(port),
    });
    const started = { app, process, url: `http://127.0.0.1:${port}` };
    running.push(started);
    await eventually(
      async () => {
        if (process.child.exitCode !== null)
          throw new Error(`${app} exited ${process.child.exitCode}:\n${process.output()}`);
        const { status } = await ask(started.url, 'GET', '/healthz');
        if (status !== 200) throw new Error(`${app} /healthz answered ${status}`);
      },
      { timeoutMs: 60_000 },
    );
    return started;
  }

  beforeAll(async () => {
    env = {
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      KAFKA_BROKERS: testKafkaBrokers(),
      KAFKA_TOPIC_PREFIX: uniqueTopicPrefix(),
      KAFKA_EVENTS_PARTITIONS: '2',
      KAFKA_PROFILES_PARTITIONS: '2',
    };
    // One Postgres server database shared by all, as in a cluster; without a server each app gets PGlite in memory.
    if (postgresServerAvailable()) {
      const database = await createTestDatabase('server');
      resources.push(database);
      env.DATABASE_URL = database.url;
    }
    // The standalone first: it migrates Postgres and makes the topics before the others start.
    await start('standalone');
    await Promise.all(SERVICE_NAMES.map((service) => start(service)));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(running.map(({ process }) => process.stop()));
    await Promise.all(resources.map((resource) => resource.dispose()));
    for (const directory of directories) directory.remove();
  });

  const served = ROLE_MATRIX.filter((route) => route.served !== false);

  it.each(APPS)('%s answers exactly the routes it owns', async (app) => {
    const target = running.find((r) => r.app === app)!;
    const wrong: string[] = [];
    for (const route of served) {
      const owns = app === 'standalone' || route.service === 'every' || route.service === app;
      const { status, body } = await ask(target.url, route.method, concretePath(route));
      const label = `${route.method} ${route.path} (owner ${route.service})`;
      if (owns && status === 404) wrong.push(`${label}: not mounted (${body.slice(0, 80)})`);
      if (!owns && status !== 404) wrong.push(`${label}: answered ${status}, expected 404`);
      if (status === 404 && NEST_DEFAULT_404.test(body))
        wrong.push(`${label}: Nest's default 404 body instead of the family's shape`);
      if (status >= 500) wrong.push(`${label}: ${status} ${body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });

  it.each(APPS)(
    '%s serves the web console at / if it runs the management service, and leaves / to the API otherwise',
    async (app) => {
      const target = running.find((r) => r.app === app)!;
      const response = await fetch(`${target.url}/`);
      const serves = app === 'standalone' || app === 'management';
      expect({ app, status: response.status, html: (await response.text()).includes('<div id="root">') }).toEqual({
        app,
        status: serves ? 200 : 404,
        html: serves,
      });
    },
  );

  it('every route has one owner among the services, and every service a process', () => {
    for (const route of ROLE_MATRIX) expect(['every', ...SERVICE_NAMES]).toContain(route.service);
    expect(running.map((r) => r.app).sort()).toEqual([...APPS].sort());
  });
});
