import { LocalObjectStore } from '@analytics/object-store';
import { temporaryDirectory } from '@analytics/testing';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestS3, TestS3 } from '../../object-store/test/s3rver-harness';
import { tarEnd, tarHeader, tarPadding } from '../src/tar';
import { admin, client, OWNER, OWNER_SECRET, ownerAuth, seed, snapshot, startStandalone } from './backup-harness';

const OBJECT = 'retrievals/1/backup-check.json';
const fails = (stderr: string) => ({ stderr: expect.stringContaining(stderr) as string });

/**
 * The embedded default backed up while it serves, wiped, restored and started again: every event (the export byte
 * for byte), profile, account, saved report and pipeline is back. Real processes, as a user runs them.
 */
describe('backup and restore of the embedded default', () => {
  jest.setTimeout(600_000);
  const root = temporaryDirectory('backup');
  const dataDir = join(root.path, 'data');
  const backups = join(root.path, 'backups');
  const port = 20000 + Math.floor(Math.random() * 20000);
  const api = client(port);
  const ownerEnv = { ADMIN_URL: `http://127.0.0.1:${port}`, ADMIN_USERNAME: OWNER, ADMIN_SECRET: OWNER_SECRET };
  let s3: TestS3;
  beforeAll(async () => (s3 = await startTestS3('backups')));
  afterAll(async () => {
    await s3?.stop();
    root.remove();
  });

  it('restores what the running server held into an empty data directory, and refuses what it must', async () => {
    let server = await startStandalone(dataDir, port);
    let before: Record<string, string>;
    let account: string;
    try {
      ({ account } = await seed(api));
      // A file in the object store, as a retrieval or a pipeline leaves one (the folder is shared by design).
      await new LocalObjectStore(join(dataDir, 'objects')).put(OBJECT, Buffer.from('{"n":1}\n'), {
        contentType: 'application/x-ndjson',
      });
      before = await snapshot(api, account);

      const refused = await api('POST', '/api/app/backup', undefined, account);
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.text)).toEqual({ status: 'error', error: expect.stringContaining('owner') });
      // Another organization's owner holds no right to every organization's data.
      const other = JSON.parse((await api('POST', '/api/app/organizations', { name: 'Tenant B' }, ownerAuth)).text) as {
        results: { owner: { username: string; token: string } };
      };
      const otherOwner = `Basic ${Buffer.from(`${other.results.owner.username}:${other.results.owner.token}`).toString('base64')}`;
      expect((await api('POST', '/api/app/backup', undefined, otherOwner)).status).toBe(403);

      // One at a time: a backup whose reader has not read it yet holds the slot.
      const first = await fetch(`http://127.0.0.1:${port}/api/app/backup`, {
        method: 'POST',
        headers: { Authorization: ownerAuth },
      });
      expect(first.headers.get('content-type')).toBe('application/x-tar');
      const second = await api('POST', '/api/app/backup', undefined, ownerAuth);
      expect(second.status).toBe(409);
      expect(JSON.parse(second.text)).toEqual({ status: 'error', error: expect.stringContaining('already running') });
      await first.arrayBuffer();

      // The CLI's backup while events keep arriving (two days back: outside the export compared below).
      const running = admin(['backup', backups], ownerEnv);
      let done = false;
      let served = 0;
      void running.finally(() => (done = true)).catch(() => undefined);
      const during = { event: 'During', properties: { token: 'backup-project-token', distinct_id: 'late' } };
      while (!done) {
        const event = [{ ...during, properties: { ...during.properties, time: Date.now() / 1000 - 2 * 86_400 } }];
        expect((await api('POST', '/track?verbose=1', event)).text).toContain('"status":1');
        served++;
      }
      expect((await running).stdout).toMatch(/backup written to .*analytics-backup-.*\.tar\n/);
      expect(served).toBeGreaterThan(0);

      await expect(admin(['restore', backups], { DATA_DIR: dataDir })).rejects.toMatchObject(
        fails(`already open in process ${server.child.pid}`),
      );
    } finally {
      expect(await server.stop(60_000)).toBe(0);
    }
    await expect(admin(['restore', backups], { DATA_DIR: dataDir })).rejects.toMatchObject(fails('is not empty'));

    const secret = readFileSync(join(dataDir, 'download-link.secret'));
    rmSync(dataDir, { recursive: true, force: true });
    const restored = await admin(['restore', backups], { DATA_DIR: dataDir });
    expect(restored.stdout).toMatch(/clickhouse: events, \d+ rows/);

    server = await startStandalone(dataDir, port);
    try {
      expect(await snapshot(api, account)).toEqual(before);
      expect(readFileSync(join(dataDir, 'download-link.secret'))).toEqual(secret);
      const object = await new LocalObjectStore(join(dataDir, 'objects')).get(OBJECT);
      expect(object?.contentType).toBe('application/x-ndjson');
      expect((await object!.body.toArray()).join('')).toBe('{"n":1}\n');
      // To S3: the same backup through a bucket (s3rver on 127.0.0.1).
      const toBucket = await admin(['backup', 's3://backups/nightly'], { ...ownerEnv, ...s3Env() });
      expect(toBucket.stdout).toMatch(/backup written to s3:\/\/backups\/nightly\/analytics-backup-.*\.tar\n/);
    } finally {
      expect(await server.stop(60_000)).toBe(0);
    }
    const fromBucket = join(root.path, 'from-bucket');
    const read = await admin(['restore', 's3://backups/nightly'], { DATA_DIR: fromBucket, ...s3Env() });
    expect(read.stdout).toContain(restored.stdout.match(/clickhouse: events, \d+ rows/)![0]);
    expect(readFileSync(join(fromBucket, 'download-link.secret'))).toEqual(secret);
    expect(readFileSync(join(fromBucket, 'objects', OBJECT), 'utf8')).toBe('{"n":1}\n');
  });

  it('refuses a damaged backup, one cut off and one of an unknown format, and leaves the directory empty', async () => {
    const [name] = readdirSync(backups);
    const bytes = readFileSync(join(backups, name));
    const target = join(root.path, 'refused');
    const tryRestore = async (altered: Buffer) => {
      const file = join(root.path, 'altered.tar');
      writeFileSync(file, altered);
      const attempt = admin(['restore', file], { DATA_DIR: target });
      await attempt.catch(() => undefined);
      expect(existsSync(target) ? readdirSync(target) : []).toEqual([]);
      return attempt;
    };
    const damaged = Buffer.from(bytes);
    damaged[bytes.indexOf('postgres/data-dir.tar.gz') + 512 + 1000] ^= 0xff;
    await expect(tryRestore(damaged)).rejects.toMatchObject(fails('postgres/data-dir.tar.gz is damaged'));
    await expect(tryRestore(bytes.subarray(0, bytes.length / 2))).rejects.toMatchObject(fails('cut off'));
    const future = Buffer.from(bytes);
    future.write('"format": 9', future.indexOf('"format": 1'));
    await expect(tryRestore(future)).rejects.toMatchObject(fails('this backup has format 9'));
    // The manifest is last: a newer release's schema is a rewritten manifest and the archive's end.
    const at = bytes.lastIndexOf('manifest.json');
    const manifest = JSON.parse(bytes.toString('utf8', at + 512, bytes.length - 1024).replace(/\0+$/, '')) as {
      clickhouse: { migrations: number[] };
    };
    manifest.clickhouse.migrations.push(9999);
    const text = Buffer.from(JSON.stringify(manifest));
    const newer = Buffer.concat([bytes.subarray(0, at), tarHeader({ path: 'manifest.json', size: text.length }), text]);
    await expect(tryRestore(Buffer.concat([newer, tarPadding(text.length), tarEnd()]))).rejects.toMatchObject(
      fails('holds migration 9999, which this release does not know'),
    );
  });

  const s3Env = () => {
    const { S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY } = s3.env;
    return { S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY };
  };
});
