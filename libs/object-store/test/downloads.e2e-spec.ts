import { AppConfig, loadConfig } from '@analytics/config';
import { PlatformModule } from '@analytics/runtime';
import { temporaryDirectory } from '@analytics/testing';
import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Clock, ManualClock } from '@analytics/clock';
import { DownloadLinks, DownloadsModule, ObjectStore } from '../src';
import { DOWNLOAD_LINK_SETTINGS, DownloadLinkOptions } from '../src/download-links';
import { signDownload } from '../src/download-signature';
import { startTestS3, TestS3 } from './s3rver-harness';

const PUBLIC_URL = 'https://exports.example.test';
const TTL = 3600;
const START = Date.UTC(2030, 0, 1);

/** A GET (or HEAD) of the path exactly as written: fetch and URL would resolve "..". */
function raw(
  baseUrl: string,
  path: string,
  method = 'GET',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl);
    const req = request({ hostname, port, path, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe.each([['local folder'], ['s3rver']])('signed download links: %s', (backend) => {
  const dir = temporaryDirectory('test-downloads');
  // The service's time: the links' expiry is checked against it, moved by the tests instead of sleeping.
  const clock = new ManualClock(START);
  let s3: TestS3 | undefined;
  let config: AppConfig;
  let app: INestApplication;
  let baseUrl: string;
  let store: ObjectStore;
  let links: DownloadLinks;

  /** The link's path and query, sent to this test's server instead of the public host. */
  const local = (url: string) => {
    expect(url.startsWith(`${PUBLIC_URL}/downloads/`)).toBe(true);
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  };
  const get = async (path: string) => {
    const response = await fetch(`${baseUrl}${path}`);
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  };

  beforeAll(async () => {
    s3 = backend === 's3rver' ? await startTestS3() : undefined;
    config = loadConfig({
      DATA_DIR: join(dir.path, 'data'),
      LOG_LEVEL: 'silent',
      EXPORT_PUBLIC_URL: `${PUBLIC_URL}/`,
      DOWNLOAD_LINK_TTL_SECONDS: String(TTL),
      ...s3?.env,
    });
    const moduleRef = await Test.createTestingModule({ imports: [PlatformModule.forRoot(config, {}), DownloadsModule] })
      .overrideProvider(Clock)
      .useValue(clock)
      .compile();
    app = moduleRef.createNestApplication({ bodyParser: false, logger: false });
    await app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    store = app.get(ObjectStore);
    links = app.get(DownloadLinks);
    expect(store.kind).toBe(backend === 's3rver' ? 's3' : 'local');
  });
  afterAll(async () => {
    await app?.close();
    await s3?.stop();
    dir.remove();
  });
  beforeEach(() => {
    clock.set(START);
  });

  it('serves the bytes of a valid link as an attachment with type and length', async () => {
    const content = JSON.stringify({ distinct_id: 'user-1', events: [1, 2, 3] });
    await store.put('retrievals/42/task-1.json', Buffer.from(content), { contentType: 'application/json' });
    const url = links.url('retrievals/42/task-1.json');
    expect(url).toBe(
      `${PUBLIC_URL}/downloads/retrievals/42/task-1.json?expires=${START / 1000 + TTL}&signature=${url.split('signature=')[1]}`,
    );
    const response = await get(local(url));
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe(content);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('content-length')).toBe(String(content.length));
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="task-1.json"');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('streams a 4 MiB file whole and answers HEAD with the headers only', async () => {
    const data = createHash('sha512').update('seed').digest();
    const chunks = Array.from({ length: 4 * 16_384 }, (_, i) => Buffer.concat([data, Buffer.from([i & 255])]));
    const expected = createHash('sha256').update(Buffer.concat(chunks)).digest('hex');
    const { size } = await store.put('pipelines/7/export.ndjson.gz', Readable.from(chunks));
    const path = local(links.url('pipelines/7/export.ndjson.gz'));
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/gzip');
    expect(response.headers.get('content-length')).toBe(String(size));
    expect(createHash('sha256').update(response.body).digest('hex')).toBe(expected);
    const head = await raw(baseUrl, path, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(size));
    expect(head.body.length).toBe(0);
  });

  it('accepts a link until its expiry and refuses it from then on', async () => {
    await store.put('retrievals/42/expiring.json', Buffer.from('{}'));
    const path = local(links.url('retrievals/42/expiring.json'));
    clock.set(START + TTL * 1000 - 1);
    expect((await get(path)).status).toBe(200);
    clock.set(START + TTL * 1000);
    const expired = await get(path);
    expect(expired.status).toBe(403);
    expect(JSON.parse(expired.body.toString())).toEqual({ status: 'error', error: 'download link expired' });
    expect(expired.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('refuses a tampered link with 403 in the app API error shape', async () => {
    await store.put('retrievals/42/secret.json', Buffer.from('{"private":true}'));
    await store.put('retrievals/43/other.json', Buffer.from('{"other":true}'));
    const url = new URL(links.url('retrievals/42/secret.json'));
    const expires = url.searchParams.get('expires')!;
    const signature = url.searchParams.get('signature')!;
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    for (const path of [
      `/downloads/retrievals/42/secret.json?expires=${expires}&signature=${flipped}`,
      `/downloads/retrievals/42/secret.json?expires=${Number(expires) + 86_400}&signature=${signature}`,
      `/downloads/retrievals/43/other.json?expires=${expires}&signature=${signature}`,
      `/downloads/retrievals/42/secret.json?expires=${expires}`,
      `/downloads/retrievals/42/secret.json`,
      `/downloads/retrievals/42/secret.json?expires=soon&signature=${signature}`,
    ]) {
      const response = await get(path);
      expect({ path, status: response.status }).toEqual({ path, status: 403 });
      expect(JSON.parse(response.body.toString())).toEqual({
        status: 'error',
        error: 'invalid download link signature',
      });
    }
  });

  it('answers 404 in the same shape when the file is gone', async () => {
    await store.put('retrievals/42/deleted.json', Buffer.from('{}'));
    const path = local(links.url('retrievals/42/deleted.json'));
    await store.delete('retrievals/42/deleted.json');
    const response = await get(path);
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body.toString())).toEqual({
      status: 'error',
      error: expect.stringContaining('file not found'),
    });
  });

  it('never serves a path outside the store, even under a valid signature', async () => {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(join(config.dataDir, 'outside.txt'), 'not an object');
    const secret = app.get<DownloadLinkOptions>(DOWNLOAD_LINK_SETTINGS).secret;
    const expires = START / 1000 + TTL;
    const signed = `?expires=${expires}&signature=${signDownload(secret, '../outside.txt', expires)}`;
    for (const path of ['../outside.txt', '%2e%2e/outside.txt', '..%2Foutside.txt', '%2E%2E%2Foutside.txt']) {
      const response = await raw(baseUrl, `/downloads/${path}${signed}`);
      expect({ path, status: response.status, body: JSON.parse(response.body.toString()) }).toEqual({
        path,
        status: 400,
        body: { status: 'error', error: expect.stringContaining('invalid object key "../outside.txt"') },
      });
    }
  });
});
