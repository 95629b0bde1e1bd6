import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The console's paths (web/console/src/router.tsx lists the same pages): each answers the
 * single-page app's index.html so a shared link opens its page. None overlaps an API route, and
 * anything else falls through to the API's own routes and their 404 shapes.
 */
export const CONSOLE_PAGES = [
  '/events',
  '/insights',
  '/funnels',
  '/boards',
  '/flows',
  '/retention',
  '/cohorts',
  '/alerts',
  '/profiles',
  '/dictionary',
  '/settings',
  // A shared board, read-only and without an account (/shared?board=<token>): not in the console's navigation.
  '/shared',
] as const;

/** Vite's hashed build output: a name only, never a path. */
const ASSET = /^\/assets\/([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.(?:js|css|svg|png|woff2?))$/;

export type ConsoleRequest = { kind: 'page' } | { kind: 'asset'; file: string } | undefined;

/** What a GET or HEAD path asks of the console, if anything. */
export function consoleRequest(path: string): ConsoleRequest {
  const page = path.length > 1 ? path.replace(/\/+$/, '') : path;
  if (page === '/' || (CONSOLE_PAGES as readonly string[]).includes(page)) return { kind: 'page' };
  const asset = ASSET.exec(path);
  return asset ? { kind: 'asset', file: asset[1] } : undefined;
}

/**
 * Where `npm run build` puts the console (`dist/console`), from this file compiled into
 * `dist/libs/management/src` or run from its sources (tests).
 */
export function consoleDirectory(from: string = __dirname): string | undefined {
  const repoRoot = resolve(from, from.includes('/dist/') ? '../../../..' : '../../..');
  const directory = resolve(repoRoot, 'dist/console');
  return existsSync(resolve(directory, 'index.html')) ? directory : undefined;
}
