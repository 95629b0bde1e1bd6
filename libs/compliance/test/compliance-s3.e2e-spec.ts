import { ObjectStore } from '@analytics/object-store';
import { eventually, temporaryDirectory } from '@analytics/testing';
import { gunzipSync } from 'node:zlib';
import { bearer, ComplianceHarness, event } from './compliance-harness';

// s3rver ships no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (options: object) => {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
};

const RETRIEVALS = '/api/app/data-retrievals/v3.0';

/** With an S3 store, ClickHouse's output streams through gzip into the bucket; the link serves it from there. */
describe('a retrieval into an S3-compatible store (s3rver)', () => {
  const directory = temporaryDirectory('compliance-s3rver');
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: directory.path,
    configureBuckets: [{ name: 'retrievals', configs: [] }],
  });
  let h: ComplianceHarness;

  beforeAll(async () => {
    const { port } = await server.run();
    h = await ComplianceHarness.start(
      { startAfterSeconds: 0 },
      {
        env: {
          S3_BUCKET: 'retrievals',
          S3_ENDPOINT: `http://127.0.0.1:${port}`,
          S3_REGION: 'us-east-1',
          S3_FORCE_PATH_STYLE: 'true',
          S3_ACCESS_KEY_ID: 'S3RVER',
          S3_SECRET_ACCESS_KEY: 'S3RVER',
          DOWNLOAD_LINK_SECRET: 'test-download-link-secret-0123456789abcdef',
        },
      },
    );
  });
  afterAll(async () => {
    await h?.close();
    await server.close();
    directory.remove();
  });

  it('writes the ids’ events to the bucket and serves them behind the signed link', async () => {
    expect(h.app.app.get(ObjectStore).kind).toBe('s3');
    const project = await h.project();
    const owner = await h.oauthToken(h.organizationId, 'owner');
    await h.import(project, [event('dana', 'd1', { plan: 'pro' }), event('dana', 'd2'), event('eve', 'e1')]);
    const created = await h.call('POST', `${RETRIEVALS}?token=${project.token}`, {
      authorization: bearer(owner),
      body: { distinct_ids: ['dana'] },
    });
    const id = created.body.results.task_id as string;
    const link = await eventually(
      async () => {
        const results = (
          await h.call('GET', `${RETRIEVALS}/${id}?token=${project.token}`, { authorization: bearer(owner) })
        ).body.results;
        expect(results.status).toBe('SUCCESS');
        return results.results as string;
      },
      { timeoutMs: 30_000 },
    );
    const url = new URL(link);
    const response = await fetch(`${h.app.baseUrl}${url.pathname}${url.search}`);
    expect(response.status).toBe(200);
    const lines = gunzipSync(Buffer.from(await response.arrayBuffer()))
      .toString()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.properties.$insert_id).sort()).toEqual(['d1', 'd2']);
    expect(lines.find((l) => l.properties.$insert_id === 'd1').properties.plan).toBe('pro');
  });
});
