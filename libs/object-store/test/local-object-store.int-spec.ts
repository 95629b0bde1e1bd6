import { temporaryDirectory } from '@analytics/testing';
import { mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LocalObjectStore } from '../src';
import { DOWNLOAD_LINK_SECRET_FILE, embeddedDownloadLinkSecret } from '../src/download-link-secret';
import { ObjectStoreErrorCode } from '../src/object-store-error';

/** What only the folder store does: files others wrote, its own bookkeeping, the embedded link key. */
describe('local folder store', () => {
  const dir = temporaryDirectory('test-local-objects');
  const root = join(dir.path, 'objects');
  const store = new LocalObjectStore(root);
  afterAll(() => dir.remove());

  it('serves files written into the folder by others (ClickHouse file()), typed by extension', async () => {
    mkdirSync(join(root, 'pipelines', '7'), { recursive: true });
    writeFileSync(join(root, 'pipelines', '7', 'part-1.parquet'), 'PAR1');
    expect(await store.head('pipelines/7/part-1.parquet')).toMatchObject({
      size: 4,
      contentType: 'application/vnd.apache.parquet',
    });
    expect((await store.list('pipelines/')).map((e) => e.key)).toEqual(['pipelines/7/part-1.parquet']);
  });

  it('keeps its bookkeeping out of listings and a replaced file never inherits a stale type', async () => {
    await store.put('typed/data', Buffer.from('a,b'), { contentType: 'text/csv' });
    expect((await store.head('typed/data'))?.contentType).toBe('text/csv');
    // Replaced behind the store's back: the sidecar names another inode, so the type falls back.
    writeFileSync(join(root, 'typed', 'data.new'), 'x');
    const { renameSync } = await import('node:fs');
    renameSync(join(root, 'typed', 'data.new'), join(root, 'typed', 'data'));
    expect((await store.head('typed/data'))?.contentType).toBe('application/octet-stream');
    expect((await store.list()).map((e) => e.key).filter((k) => k.includes('.meta') || k.includes('.partial'))).toEqual(
      [],
    );
  });

  it('refuses a key where a folder or a file of another key stands (S3 allows both)', async () => {
    await store.put('conflict/a/b.txt', Buffer.from('x'));
    await expect(store.put('conflict/a', Buffer.from('y'))).rejects.toMatchObject({
      code: ObjectStoreErrorCode.KeyConflict,
      status: 409,
    });
    await expect(store.put('conflict/a/b.txt/c', Buffer.from('z'))).rejects.toMatchObject({
      code: ObjectStoreErrorCode.KeyConflict,
    });
    expect(readFileSync(join(root, 'conflict', 'a', 'b.txt'), 'utf8')).toBe('x');
    // Deleting the "folder" key deletes nothing.
    await store.delete('conflict/a');
    expect(await store.exists('conflict/a/b.txt')).toBe(true);
  });

  it('removes uploads abandoned by a crash, and only old ones', async () => {
    mkdirSync(join(root, '.partial'), { recursive: true });
    writeFileSync(join(root, '.partial', 'old-upload'), 'half');
    writeFileSync(join(root, '.partial', 'recent-upload'), 'half');
    const dayAgo = new Date(Date.now() - 25 * 3600_000);
    utimesSync(join(root, '.partial', 'old-upload'), dayAgo, dayAgo);
    expect(await store.removeAbandonedUploads(Date.now() - 24 * 3600_000)).toBe(1);
    expect(() => statSync(join(root, '.partial', 'old-upload'))).toThrow();
    expect(statSync(join(root, '.partial', 'recent-upload')).isFile()).toBe(true);
  });

  it('generates the embedded link key once, private, and every caller gets the same', async () => {
    const dataDir = join(dir.path, 'secret-data');
    const keys = await Promise.all(Array.from({ length: 8 }, () => embeddedDownloadLinkSecret(dataDir)));
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(await embeddedDownloadLinkSecret(dataDir)).toBe(keys[0]);
    expect(statSync(join(dataDir, DOWNLOAD_LINK_SECRET_FILE)).mode & 0o777).toBe(0o600);
    writeFileSync(join(dataDir, DOWNLOAD_LINK_SECRET_FILE), 'short');
    await expect(embeddedDownloadLinkSecret(dataDir)).rejects.toThrow(/does not hold a download link key/);
  });
});
