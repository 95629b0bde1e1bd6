import { temporaryDirectory } from '@analytics/testing';
import type { AddressInfo } from 'node:net';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
// s3rver ships no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (options: object) => S3rverInstance;

export interface TestS3 {
  /** The variables that point the platform at this store (with DOWNLOAD_LINK_SECRET, which S3 requires). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** A real S3-compatible server (s3rver) on 127.0.0.1, a free port and a temporary folder, with one bucket. */
export async function startTestS3(bucket = 'test-objects'): Promise<TestS3> {
  const directory = temporaryDirectory('test-s3rver');
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: directory.path,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  return {
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      // s3rver's one account.
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      DOWNLOAD_LINK_SECRET: 'test-download-link-secret-0123456789abcdef',
    },
    async stop() {
      await server.close();
      directory.remove();
    },
  };
}
