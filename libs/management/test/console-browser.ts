import { freePort, ServiceProcess, spawnService, temporaryDirectory, eventually } from '@analytics/testing';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Page } from 'playwright-core';

const REPO_ROOT = resolve(__dirname, '../../..');

/** Screenshots of every page, kept as test artifacts (tmp/ is ignored by git). */
export const SCREENSHOTS = join(REPO_ROOT, 'tmp/console-screenshots');

/** Global setup builds the console (dist/console) with the services. */
export function prepareScreenshots(): void {
  mkdirSync(SCREENSHOTS, { recursive: true });
}

export const OWNER = { username: 'console-owner', secret: 'console-owner-secret-0123456789abcdef' };
export const PROJECT = { token: 'consoletoken0123456789abcdef', secret: 'console-project-secret-0123456789abcdef' };

export interface Standalone {
  url: string;
  process: ServiceProcess;
  stop(): Promise<void>;
}

/**
 * The standalone as its own process (embedded engines, no broker): what `npm start` runs, with the
 * default limits: the console spends its own budget (CONSOLE_*_LIMIT_*), not the public API's.
 */
export async function startStandalone(env: Record<string, string> = {}): Promise<Standalone> {
  const directory = temporaryDirectory('console-e2e');
  const port = await freePort();
  const child = spawnService('standalone', {
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    DATA_DIR: join(directory.path, 'data'),
    CLICKHOUSE_URL: `chdb:${join(directory.path, 'clickhouse')}`,
    DATABASE_URL: 'pglite:memory:',
    BOOTSTRAP_SERVICE_ACCOUNT_USERNAME: OWNER.username,
    BOOTSTRAP_SERVICE_ACCOUNT_SECRET: OWNER.secret,
    BOOTSTRAP_PROJECT_TOKEN: PROJECT.token,
    BOOTSTRAP_PROJECT_SECRET: PROJECT.secret,
    ...env,
  });
  const url = `http://127.0.0.1:${port}`;
  await eventually(
    async () => {
      if (child.child.exitCode !== null)
        throw new Error(`standalone exited ${child.child.exitCode}:\n${child.output()}`);
      const response = await fetch(`${url}/readyz`);
      if (response.status !== 200) throw new Error(`/readyz answered ${response.status}`);
    },
    { timeoutMs: 90_000 },
  );
  return {
    url,
    process: child,
    stop: async () => {
      await child.stop();
      directory.remove();
    },
  };
}

/** What a page reported that a person would see as broken: uncaught exceptions and errors logged by script. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    // A refused request (the wrong-secret sign-in) is logged by the browser itself, not by our code.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      errors.push(`console: ${message.text()}`);
  });
  return errors;
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical violations on the page as it is now (WCAG 2.x A and AA rules). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, so the console's script-src 'self' policy stays on.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: unknown[] }> } }
    ).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations;
  });
  return (violations as AxeViolation[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
