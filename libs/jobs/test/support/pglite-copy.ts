import { Postgres } from '@analytics/postgres';
import { temporaryDirectory, TestResource } from '@analytics/testing';
import type { PGlite } from '@electric-sql/pglite';
import { join } from 'node:path';

/**
 * A directory holding a copy of a PGlite database, for a process of its own to open: PGlite lets
 * one process at a time open a directory, and copying an initialised one is several times quicker
 * than initialising a new one.
 */
export async function copyPgliteDatabase(source: Postgres): Promise<TestResource> {
  const client = (source.db as unknown as { $client: PGlite }).$client;
  await client.exec('CHECKPOINT');
  const image = await client.dumpDataDir('none');
  const dir = temporaryDirectory('test-pglite-copy');
  const path = join(dir.path, 'postgres');
  const { PGlite: Engine } = await import('@electric-sql/pglite');
  const copy = await Engine.create(path, { loadDataDir: image });
  await copy.close();
  return { url: `pglite:${path}`, dispose: async () => dir.remove() };
}
