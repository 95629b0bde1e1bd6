import { createTestDatabase, eventually, spawnService, temporaryDirectory, TestResource } from '@analytics/testing';
import { join } from 'node:path';

/** `npm start` as a newcomer runs it: embedded engines under DATA_DIR, nothing else installed. */
describe('standalone process', () => {
  jest.setTimeout(240_000);
  const dataDir = temporaryDirectory('standalone');
  const env = (port: number, extra: Record<string, string> = {}) => ({
    DATA_DIR: join(dataDir.path, 'data'),
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // Shutdown speed is a benchmark matter; here only a clean exit counts, however loaded the machine.
    SHUTDOWN_TIMEOUT_MS: '60000',
    ...extra,
  });
  const status = async (url: string) => (await fetch(url)).status;
  const port = 20000 + Math.floor(Math.random() * 20000);

  afterAll(() => dataDir.remove());

  it('serves /healthz and /readyz, prints the default credentials once, and stops cleanly on SIGTERM', async () => {
    const first = spawnService('standalone', env(port));
    try {
      const [, token] = await first.waitForOutput(/project token\s+([0-9a-f]{32})/, 90_000);
      await first.waitForOutput(/project secret\s+[0-9a-f]{32}/, 90_000);
      expect(first.output()).toContain(`curl -s -u '`);
      await eventually(async () => expect(await status(`http://127.0.0.1:${port}/readyz`)).toBe(200), {
        timeoutMs: 90_000,
      });
      expect(await status(`http://127.0.0.1:${port}/healthz`)).toBe(200);
      expect(token).toMatch(/^[0-9a-f]{32}$/);
    } finally {
      const exit = await first.stop(60_000);
      // A process that does not exit cleanly says why (a shutdown past its timeout, a failed close).
      expect({ exit, output: exit === 0 ? '' : first.output().slice(-4_000) }).toEqual({ exit: 0, output: '' });
    }

    const second = spawnService('standalone', env(port + 1));
    try {
      await eventually(async () => expect(await status(`http://127.0.0.1:${port + 1}/readyz`)).toBe(200), {
        timeoutMs: 90_000,
      });
      expect(second.output()).not.toContain('project secret');

      const intruder = spawnService('standalone', env(port + 2));
      expect(await intruder.exited).toBe(1);
      expect(intruder.output()).toContain(`The data directory ${join(dataDir.path, 'data')}`);
      expect(intruder.output()).toContain(`already open in process ${second.child.pid}`);
    } finally {
      expect(await second.stop(60_000)).toBe(0);
    }
  });

  it('creates the default project with the bootstrap credentials it is given', async () => {
    const fresh = temporaryDirectory('standalone-bootstrap');
    const service = spawnService('standalone', {
      ...env(port + 3),
      DATA_DIR: fresh.path,
      BOOTSTRAP_PROJECT_TOKEN: 'ci-project-token',
      BOOTSTRAP_PROJECT_SECRET: 'ci-project-secret-0001',
    });
    try {
      await service.waitForOutput(/project token\s+ci-project-token/, 90_000);
      await service.waitForOutput(/project secret\s+ci-project-secret-0001/, 90_000);
    } finally {
      await service.stop();
      fresh.remove();
    }
  });

  it('reports every bad setting by name and exits non-zero', async () => {
    const service = spawnService('standalone', { ...env(port + 4), PORT: 'eighty', KAFKA_BROKERS: 'not a broker' });
    expect(await service.exited).toBe(1);
    expect(service.output()).toContain('PORT must be a whole number from 0 to 65535 (got "eighty")');
    expect(service.output()).toContain('KAFKA_BROKERS must be a comma-separated list of host:port');
  });

  it('runs on a Postgres server when DATABASE_URL names one', async () => {
    if (!process.env.TEST_POSTGRES_ADMIN_URL) return;
    const database: TestResource = await createTestDatabase('server');
    const service = spawnService('standalone', {
      ...env(port + 5),
      DATA_DIR: join(dataDir.path, 'pg'),
      DATABASE_URL: database.url,
    });
    try {
      await eventually(async () => expect(await status(`http://127.0.0.1:${port + 5}/readyz`)).toBe(200), {
        timeoutMs: 90_000,
      });
      await service.waitForOutput(/project token/, 90_000);
    } finally {
      await service.stop();
      await database.dispose();
    }
  });
});
