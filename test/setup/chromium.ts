import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Where the browser SDK tests find Chromium (libs/ingest/test/sdk reads the same variable). */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The browser SDK tests need headless Chromium. Where it is missing and this is a Debian machine
 * run as root, install Debian's package (as CI does); otherwise stop before any test runs, with
 * one line saying what to install.
 */
export function ensureChromium(): void {
  if (existsSync(CHROMIUM_PATH)) return;
  const canInstall = process.getuid?.() === 0 && spawnSync('apt-get', ['--version']).status === 0;
  if (!canInstall || process.env.CHROMIUM_PATH) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM_PATH}: install Debian's chromium package (apt-get install -y chromium) or set CHROMIUM_PATH.`,
    );
  }
  process.stdout.write('Installing Debian chromium for the browser SDK tests (once)…\n');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(`apt-get installed chromium, but ${CHROMIUM_PATH} is still missing: set CHROMIUM_PATH.`);
}
