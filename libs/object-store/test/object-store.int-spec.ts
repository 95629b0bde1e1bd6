import { loadConfig } from '@analytics/config';
import { eventually, temporaryDirectory } from '@analytics/testing';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { ObjectStore, S3ObjectStore } from '../src';
import { createObjectStore } from '../src/create-object-store';
import { ObjectStoreErrorCode } from '../src/object-store-error';
import { MIN_PART_BYTES } from '../src/s3-object-store';
import { startTestS3 } from './s3rver-harness';

interface Backend {
  store: ObjectStore;
  /** The local folder, for the checks that nothing lands outside it. */
  folder?: string;
  dispose(): Promise<void>;
}

const backends: [string, () => Promise<Backend>][] = [
  [
    'local folder',
    async () => {
      const dir = temporaryDirectory('test-objects');
      const config = loadConfig({ DATA_DIR: join(dir.path, 'data') });
      const folder = config.objectStore.kind === 'local' ? config.objectStore.directory : '';
      return { store: createObjectStore(config.objectStore), folder, dispose: async () => dir.remove() };
    },
  ],
  [
    's3rver',
    async () => {
      const s3 = await startTestS3();
      // The smallest part S3 allows, so a 12 MiB object takes a three-part upload.
      const store = createObjectStore(loadConfig(s3.env).objectStore, { partBytes: MIN_PART_BYTES });
      return {
        store,
        async dispose() {
          (store as S3ObjectStore).onModuleDestroy();
          await s3.stop();
        },
      };
    },
  ],
];

const MiB = 1024 * 1024;

/** Deterministic bytes in 64 KiB chunks, and their digest. */
function generated(bytes: number): { stream: Readable; sha256: string } {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes; at += 65_536) {
    const chunk = Buffer.alloc(Math.min(65_536, bytes - at), 0);
    for (let i = 0; i < chunk.length; i += 4096) chunk.writeUInt32BE((at + i) >>> 0, i);
    hash.update(chunk);
    chunks.push(chunk);
  }
  return { stream: Readable.from(chunks), sha256: hash.digest('hex') };
}

async function digest(body: Readable): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of body) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

async function text(store: ObjectStore, key: string): Promise<string | undefined> {
  const object = await store.get(key);
  if (!object) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

describe.each(backends)('object store contract: %s', (_name, start) => {
  let backend: Backend;
  let store: ObjectStore;

  beforeAll(async () => {
    backend = await start();
    store = backend.store;
  });
  afterAll(async () => {
    await backend?.dispose();
  });

  it('puts a buffer and gets it back with its size, type and time', async () => {
    const before = Date.now() - 2_000;
    expect(
      await store.put('basic/hello.txt', Buffer.from('hello, world'), { contentType: 'text/plain; charset=utf-8' }),
    ).toEqual({
      key: 'basic/hello.txt',
      size: 12,
    });
    const object = await store.get('basic/hello.txt');
    expect(object).toMatchObject({ key: 'basic/hello.txt', size: 12, contentType: 'text/plain; charset=utf-8' });
    expect(object!.lastModified.getTime()).toBeGreaterThanOrEqual(before);
    expect((await digest(object!.body)).bytes).toBe(12);
    expect(await store.head('basic/hello.txt')).toMatchObject({ size: 12, contentType: 'text/plain; charset=utf-8' });
    expect(await store.exists('basic/hello.txt')).toBe(true);
  });

  it('answers undefined and false for a missing object', async () => {
    expect(await store.get('basic/missing.txt')).toBeUndefined();
    expect(await store.head('basic/missing.txt')).toBeUndefined();
    expect(await store.exists('basic/missing.txt')).toBe(false);
    // "basic" is a folder in the local store, not an object.
    expect(await store.get('basic')).toBeUndefined();
  });

  it('takes the content type from the key when none is given', async () => {
    await store.put('types/report.json', Buffer.from('{}'));
    await store.put('types/blob', Buffer.from('x'));
    expect((await store.head('types/report.json'))?.contentType).toBe('application/json');
    expect((await store.head('types/blob'))?.contentType).toBe('application/octet-stream');
  });

  it('streams a 12 MiB object in and out unchanged', async () => {
    const { stream, sha256 } = generated(12 * MiB + 12_345);
    expect(await store.put('big/export.ndjson', stream, { contentType: 'application/x-ndjson' })).toEqual({
      key: 'big/export.ndjson',
      size: 12 * MiB + 12_345,
    });
    const object = await store.get('big/export.ndjson');
    expect(object).toMatchObject({ size: 12 * MiB + 12_345, contentType: 'application/x-ndjson' });
    expect(await digest(object!.body)).toEqual({ sha256, bytes: 12 * MiB + 12_345 });
  });

  it('stores an empty stream as an empty object', async () => {
    expect(await store.put('empty/nothing.bin', Readable.from([]))).toEqual({ key: 'empty/nothing.bin', size: 0 });
    expect(await text(store, 'empty/nothing.bin')).toBe('');
  });

  it('shows readers the previous object until a streamed replacement completes', async () => {
    await store.put('atomic/file.bin', Buffer.from('old'));
    const source = new PassThrough();
    const writing = store.put('atomic/file.bin', source);
    source.write(Buffer.alloc(11 * MiB, 7));
    // The store has consumed the bytes (written them to disk, or uploaded parts), but not the end.
    await eventually(() => expect(source.readableLength).toBe(0));
    expect(await text(store, 'atomic/file.bin')).toBe('old');
    expect((await store.head('atomic/file.bin'))?.size).toBe(3);
    source.end(Buffer.from('tail'));
    await writing;
    expect((await store.head('atomic/file.bin'))?.size).toBe(11 * MiB + 4);
  });

  it('keeps the previous object when the source stream fails', async () => {
    await store.put('atomic/kept.txt', Buffer.from('kept'));
    const source = new PassThrough();
    const writing = store.put('atomic/kept.txt', source);
    source.write(Buffer.alloc(6 * MiB, 1));
    await eventually(() => expect(source.readableLength).toBe(0));
    source.destroy(new Error('source broke'));
    await expect(writing).rejects.toThrow('source broke');
    expect(await text(store, 'atomic/kept.txt')).toBe('kept');
    if (backend.folder) expect(readdirSync(join(backend.folder, '.partial'))).toEqual([]);
  });

  it('lists by prefix in key order, a prefix being a string prefix and not a folder', async () => {
    for (const key of [
      'list/a/2.txt',
      'list/a/1.txt',
      'list/ab.txt',
      'list/a-b/x.txt',
      'list/b/deep/er/z.txt',
      'other/a.txt',
    ]) {
      await store.put(key, Buffer.from(key));
    }
    const keys = async (prefix?: string) => (await store.list(prefix)).map((e) => e.key);
    expect(await keys('list/a/')).toEqual(['list/a/1.txt', 'list/a/2.txt']);
    expect(await keys('list/a')).toEqual(['list/a-b/x.txt', 'list/a/1.txt', 'list/a/2.txt', 'list/ab.txt']);
    expect(await keys('list/b')).toEqual(['list/b/deep/er/z.txt']);
    expect(await keys('list/c')).toEqual([]);
    expect(await keys('nothing-here/')).toEqual([]);
    expect(await keys()).toEqual(expect.arrayContaining(['list/a/1.txt', 'other/a.txt', 'basic/hello.txt']));
    const [entry] = await store.list('list/a/1');
    expect(entry).toMatchObject({ key: 'list/a/1.txt', size: 12 });
    expect(Math.abs(entry.lastModified.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('deletes one object, idempotently, and by prefix, leaving the rest', async () => {
    for (const key of ['del/one.txt', 'del/keep.txt', 'del/tree/1.txt', 'del/tree/2/3.txt', 'del/treetop.txt'])
      await store.put(key, Buffer.from('x'));
    await store.delete('del/one.txt');
    await store.delete('del/one.txt');
    expect(await store.exists('del/one.txt')).toBe(false);
    expect(await store.deletePrefix('del/tree/')).toBe(2);
    expect((await store.list('del/')).map((e) => e.key)).toEqual(['del/keep.txt', 'del/treetop.txt']);
    expect(await store.deletePrefix('del/tree')).toBe(1);
    expect(await store.deletePrefix('del/none/')).toBe(0);
    expect((await store.list('del/')).map((e) => e.key)).toEqual(['del/keep.txt']);
    if (backend.folder) expect(existsSync(join(backend.folder, 'del', 'tree'))).toBe(false);
  });

  it('refuses to delete everything through an empty prefix', async () => {
    await expect(store.deletePrefix('')).rejects.toMatchObject({ code: ObjectStoreErrorCode.InvalidKey, status: 400 });
    expect(await store.exists('basic/hello.txt')).toBe(true);
  });

  it.each([
    '../escape.txt',
    '../../etc/passwd',
    '/tmp/absolute.txt',
    'a/../../escape.txt',
    'a/./b',
    'nul\0.txt',
    '.hidden',
    'a//b',
    'back\\slash',
  ])('refuses the unsafe key %j in every operation and writes nothing', async (key) => {
    const refused = { code: ObjectStoreErrorCode.InvalidKey, status: 400 };
    await expect(store.put(key, Buffer.from('evil'))).rejects.toMatchObject(refused);
    await expect(store.put(key, Readable.from([Buffer.from('evil')]))).rejects.toMatchObject(refused);
    await expect(store.get(key)).rejects.toMatchObject(refused);
    await expect(store.head(key)).rejects.toMatchObject(refused);
    await expect(store.delete(key)).rejects.toMatchObject(refused);
    await expect(store.deletePrefix(key)).rejects.toMatchObject(refused);
    await expect(store.list(`${key}/`)).rejects.toMatchObject(refused);
    if (backend.folder) {
      expect(existsSync(join(backend.folder, '..', 'escape.txt'))).toBe(false);
      expect(existsSync(join(dirname(backend.folder), '..', 'escape.txt'))).toBe(false);
      expect(existsSync('/tmp/absolute.txt')).toBe(false);
    }
  });
});
