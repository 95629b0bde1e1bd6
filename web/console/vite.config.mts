import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The console's build: Vite 8 (Rolldown; Oxc transforms TSX itself, React's automatic runtime), into
 * dist/console beside the services' compiled code. Paths are absolute from `/`: the console is served
 * at the root of its host (the standalone's, or the management service's in a cluster).
 */
const here = dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  base: '/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: resolve(here, '../../dist/console'),
    emptyOutDir: true,
    // ECharts alone is ~1 MB unminified; one chunk keeps the static serving trivial.
    chunkSizeWarningLimit: 1500,
  },
  logLevel: 'warn',
});
