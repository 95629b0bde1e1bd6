import { restoreBackup } from '@analytics/backup';
import { loadConfig } from '@analytics/config';
import { S3ObjectStore } from '@analytics/object-store';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A backup's name: its time, so names sort in the order the backups were taken. */
const BACKUP_NAME = /^analytics-backup-[0-9TZ-]+\.tar$/;

interface S3Location {
  store: S3ObjectStore;
  /** The key or prefix under the bucket, without a leading "/". */
  path: string;
}

/** `s3://bucket/prefix`, with endpoint, region and credentials from the S3_* variables (docs/object-store.md). */
function s3Location(url: string): S3Location | undefined {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(url);
  if (!match) return undefined;
  const env = process.env;
  const store = new S3ObjectStore({
    kind: 's3',
    bucket: match[1],
    region: env.S3_REGION ?? 'us-east-1',
    endpoint: env.S3_ENDPOINT,
    forcePathStyle: /^(1|true|yes)$/i.test(env.S3_FORCE_PATH_STYLE ?? ''),
    prefix: '',
    credentials:
      env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
        : undefined,
  });
  return { store, path: match[2] };
}

const under = (prefix: string, name: string) =>
  prefix && !prefix.endsWith('/') ? `${prefix}/${name}` : `${prefix}${name}`;

/**
 * `backup <dir or s3://bucket/prefix>`: the running server's backup, streamed from `POST /api/app/backup` into a
 * file of the directory (written as `.partial`, renamed when complete) or an object under the prefix.
 */
export async function backup(
  target: string | undefined,
  request: (path: string) => Promise<Response>,
): Promise<string> {
  if (!target) throw new Error('usage: admin backup <directory or s3://bucket/prefix>');
  const response = await request('/api/app/backup');
  if (response.status !== 200 || !response.body) {
    const answer = (await response.json().catch(() => ({}))) as { error?: string };
    throw new Error(answer.error ?? `HTTP ${response.status}`);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? '';
  if (!BACKUP_NAME.test(name)) throw new Error('the server did not answer with a backup');
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
  const s3 = s3Location(target);
  if (s3) {
    const key = under(s3.path, name);
    await s3.store.put(key, body, { contentType: 'application/x-tar' });
    return `s3://${/^s3:\/\/([^/]+)/.exec(target)![1]}/${key}`;
  }
  const directory = resolve(target);
  await mkdir(directory, { recursive: true });
  const path = join(directory, name);
  try {
    await pipeline(body, createWriteStream(`${path}.partial`, { flags: 'wx', flush: true }));
    await rename(`${path}.partial`, path);
  } finally {
    await rm(`${path}.partial`, { force: true });
  }
  return path;
}

/** The newest backup among names, or the name itself when it is one. */
const newest = (names: string[], where: string) => {
  const found = names.filter((name) => BACKUP_NAME.test(name.split('/').pop()!)).sort();
  if (!found.length) throw new Error(`no backup (analytics-backup-*.tar) in ${where}`);
  return found[found.length - 1];
};

/** Opens the backup a restore reads: a file, the newest backup in a directory or under an S3 prefix, or an S3 key. */
async function openBackup(source: string): Promise<{ name: string; stream: Readable }> {
  const s3 = s3Location(source);
  if (s3) {
    const key = s3.path.endsWith('.tar')
      ? s3.path
      : newest(
          (await s3.store.list(s3.path)).map((o) => o.key),
          source,
        );
    const object = await s3.store.get(key);
    if (!object) throw new Error(`${source}: no such backup`);
    return { name: key, stream: object.body };
  }
  const path = resolve(source);
  const file = (await stat(path)).isDirectory() ? join(path, newest(await readdir(path), path)) : path;
  return { name: file, stream: createReadStream(file) };
}

/** `restore <file, dir or s3 url>`: rebuilds the empty DATA_DIR from a backup, with the server stopped. */
export async function restore(source: string | undefined, log: (line: string) => void): Promise<void> {
  if (!source) throw new Error('usage: DATA_DIR=<empty directory> admin restore <file, directory or s3://bucket/key>');
  // The S3_* variables say where the backup is; the restored installation keeps its files in DATA_DIR.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('S3_')));
  const config = loadConfig(env);
  const { name, stream } = await openBackup(source);
  log(`restoring ${name} into ${config.dataDir}`);
  await restoreBackup(config, stream, log);
  log('done: start the server (npm start); it applies any newer migrations as it starts');
}
