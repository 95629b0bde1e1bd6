import { createClickHouseClient, parseClickHouseUrl } from '@analytics/clickhouse';
import { AppConfig } from '@analytics/config';
import { lockDirectory } from '@analytics/directory-lock';
import { unknownVersions } from '@analytics/migrations';
import { DOWNLOAD_LINK_SECRET_FILE, LocalObjectStore } from '@analytics/object-store';
import { parseDatabaseUrl, Postgres, POSTGRES_MIGRATIONS } from '@analytics/postgres';
import { CLICKHOUSE_MIGRATIONS } from '@analytics/runtime';
import { createReadStream, openAsBlob } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { BackupManifest, POSTGRES_FILE, quotedTable, tablePart } from './backup-manifest';
import { stageBackup } from './backup-staging';

/** Where the restored installation lives: the embedded engines' directories and the local object store's. */
interface EmbeddedPaths {
  dataDir: string;
  clickhouse: string;
  postgres: string;
  objects: string;
}

function embeddedPaths(config: AppConfig): EmbeddedPaths {
  const clickhouse = parseClickHouseUrl(config.clickhouseUrl);
  const postgres = parseDatabaseUrl(config.databaseUrl);
  if (clickhouse.kind !== 'chdb') throw new Error('restore rebuilds the embedded default: unset CLICKHOUSE_URL');
  if (postgres.kind !== 'pglite' || postgres.path === 'memory:')
    throw new Error('restore rebuilds the embedded default: unset DATABASE_URL');
  if (config.objectStore.kind !== 'local') throw new Error('restore rebuilds the embedded default: unset S3_BUCKET');
  const objects = config.objectStore.directory;
  return { dataDir: config.dataDir, clickhouse: resolve(clickhouse.path), postgres: resolve(postgres.path), objects };
}

const isEmpty = async (directory: string) =>
  (
    await readdir(directory).catch((error: NodeJS.ErrnoException) =>
      error.code === 'ENOENT' ? [] : Promise.reject(error),
    )
  ).length === 0;

/**
 * Rebuilds an empty data directory from a backup (docs/backup.md), with the server stopped: refuses a directory a
 * running server holds, one that is not empty, a backup of another format and a damaged one. The engines come back
 * at the schema the backup was taken at; the next start migrates them. A failed restore leaves the directory empty.
 */
export async function restoreBackup(
  config: AppConfig,
  source: AsyncIterable<Buffer>,
  log: (line: string) => void,
): Promise<BackupManifest> {
  const paths = embeddedPaths(config);
  // Taken and let go at once: throws, naming the process, while a server holds either engine's directory.
  for (const directory of [paths.clickhouse, paths.postgres]) lockDirectory(directory)();
  for (const directory of [paths.dataDir, paths.clickhouse, paths.postgres, paths.objects])
    if (!(await isEmpty(directory)))
      throw new Error(`${directory} is not empty: restore into an empty DATA_DIR (move the old one aside first)`);
  const staging = join(paths.dataDir, '.restore');
  try {
    await mkdir(staging, { recursive: true });
    const { manifest } = await stageBackup(source, staging);
    log(`backup of ${manifest.created} (version ${manifest.app_version}) read and checked`);
    refuseNewerSchema('ClickHouse', manifest.clickhouse.migrations, CLICKHOUSE_MIGRATIONS);
    refuseNewerSchema('Postgres', manifest.postgres.migrations, POSTGRES_MIGRATIONS);
    await loadPostgres(config, join(staging, POSTGRES_FILE));
    log(`postgres: data directory restored (migrations ${manifest.postgres.migrations.join(', ')})`);
    await loadClickHouse(config, staging, manifest, log);
    const store = new LocalObjectStore(paths.objects);
    for (const object of manifest.objects)
      await store.put(object.key, createReadStream(join(staging, object.file)), { contentType: object.content_type });
    log(`objects: ${manifest.objects.length} restored`);
    if (manifest.download_link_secret) {
      const secret = join(staging, manifest.download_link_secret);
      await writeFile(join(paths.dataDir, DOWNLOAD_LINK_SECRET_FILE), createReadStream(secret), { mode: 0o600 });
    }
    return manifest;
  } catch (error) {
    // The directory was empty: leave it so, rather than half restored.
    await Promise.all(
      [paths.clickhouse, paths.postgres, paths.objects, join(paths.dataDir, DOWNLOAD_LINK_SECRET_FILE)].map((path) =>
        rm(path, { recursive: true, force: true }),
      ),
    );
    throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** A backup of a newer release: this one would refuse to start on it (migrations never run backwards). */
function refuseNewerSchema(engine: string, applied: number[], known: readonly { version: number }[]): void {
  const unknown = unknownVersions(applied, known);
  if (unknown.length)
    throw new Error(
      `the backup's ${engine} schema holds migration ${unknown.join(', ')}, which this release does not know: ` +
        'restore it with the release that took it, or a newer one',
    );
}

async function loadPostgres(config: AppConfig, dump: string): Promise<void> {
  // A Blob over the file: PGlite reads it as it unpacks, not into memory first.
  const postgres = await Postgres.connect(config.databaseUrl, { loadDataDir: await openAsBlob(dump) });
  await postgres.close();
}

async function loadClickHouse(
  config: AppConfig,
  staging: string,
  manifest: BackupManifest,
  log: (line: string) => void,
): Promise<void> {
  const client = createClickHouseClient(config.clickhouseUrl);
  try {
    for (const table of manifest.clickhouse.tables) {
      await client.command({ query: table.create });
      for (let part = 0; part < table.parts; part++) {
        await client.command({
          query: `INSERT INTO ${quotedTable(table.name)} SELECT * FROM file({path:String}, Native)`,
          query_params: { path: join(staging, tablePart(table.name, part)) },
          // Parts are not retries: the events table's insert deduplication must not drop one that repeats another.
          clickhouse_settings: { insert_deduplicate: 0 },
        });
      }
      log(`clickhouse: ${table.name}, ${table.rows} rows`);
    }
  } finally {
    await client.close();
  }
}
