import { loadConfig } from '@analytics/config';
import { S3ObjectStore } from '../src';
import { createObjectStore } from '../src/create-object-store';
import { startTestS3, TestS3 } from './s3rver-harness';

/** What only the bucket store does: S3_PREFIX keeps installations sharing a bucket apart. */
describe('S3 store under a prefix', () => {
  let s3: TestS3;
  let first: S3ObjectStore;
  let second: S3ObjectStore;
  let whole: S3ObjectStore;

  beforeAll(async () => {
    s3 = await startTestS3();
    const store = (prefix?: string) =>
      createObjectStore(
        loadConfig({ ...s3.env, ...(prefix ? { S3_PREFIX: prefix } : {}) }).objectStore,
      ) as S3ObjectStore;
    first = store('installs/first');
    second = store('installs/second/');
    whole = store();
  });
  afterAll(async () => {
    for (const store of [first, second, whole]) store?.onModuleDestroy();
    await s3?.stop();
  });

  it('keeps each installation to its prefix for every operation', async () => {
    await first.put('retrievals/1.json', Buffer.from('first'));
    await second.put('retrievals/1.json', Buffer.from('second'));
    await second.put('retrievals/2.json', Buffer.from('second'));
    expect((await whole.list()).map((e) => e.key)).toEqual([
      'installs/first/retrievals/1.json',
      'installs/second/retrievals/1.json',
      'installs/second/retrievals/2.json',
    ]);
    expect((await first.list()).map((e) => e.key)).toEqual(['retrievals/1.json']);
    expect((await first.head('retrievals/1.json'))?.size).toBe(5);
    expect(await first.exists('retrievals/2.json')).toBe(false);
    expect(await first.deletePrefix('retrievals/')).toBe(1);
    expect((await second.list('retrievals/')).map((e) => e.key)).toEqual(['retrievals/1.json', 'retrievals/2.json']);
  });

  it('deletes by prefix past one listing page (1000 keys)', async () => {
    const keys = Array.from({ length: 1005 }, (_, i) => `many/${String(i).padStart(4, '0')}.txt`);
    for (let at = 0; at < keys.length; at += 50)
      await Promise.all(keys.slice(at, at + 50).map((key) => second.put(key, Buffer.from('x'))));
    expect((await second.list('many/')).length).toBe(1005);
    expect(await second.deletePrefix('many/')).toBe(1005);
    expect(await second.list('many/')).toEqual([]);
  });
});
