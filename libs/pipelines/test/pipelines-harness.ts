import { ManualClock, Clock } from '@analytics/clock';
import { AppConfig } from '@analytics/config';
import { ExportModule } from '@analytics/export';
import { IngestModule } from '@analytics/ingest';
import { JobsModule } from '@analytics/jobs';
import { S3ObjectStore } from '@analytics/object-store';
import { ProjectsModule, ProjectsService } from '@analytics/projects';
import { PlatformModule } from '@analytics/runtime';
import { engineNeeds, intakeOf } from '@analytics/service-map';
import { createTestEnvironment, temporaryDirectory, TestEnvironment } from '@analytics/testing';
import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { PipelinesModule } from '../src';
import { PipelineRunner } from '../src/pipeline-runner';
import { PipelineSettings } from '../src/pipeline-settings';

// s3rver ships no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (options: object) => {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
};

export const BUCKET = 'pipeline-destination';
/** s3rver listens on loopback, which the default outbound policy refuses: the tests allow it, and only it. */
export const LOOPBACK = '127.0.0.0/8';

export interface RawEvent {
  event: string;
  properties: Record<string, unknown> & { time: number; distinct_id: string; $insert_id: string };
}

/**
 * Ingestion, the raw export and pipelines in one app on fresh engines, with the pipelines' clock a
 * ManualClock (kept at the real time unless a test moves it), and a real S3-compatible server
 * (s3rver) on 127.0.0.1 as the destination.
 */
export class PipelinesHarness {
  private constructor(
    readonly environment: TestEnvironment,
    readonly app: INestApplication,
    readonly baseUrl: string,
    readonly clock: ManualClock,
    readonly endpoint: string,
    readonly bucket: S3ObjectStore,
    private readonly stopS3: () => Promise<void>,
  ) {}

  static async start(settings: Partial<PipelineSettings> = {}): Promise<PipelinesHarness> {
    const directory = temporaryDirectory('pipelines-s3rver');
    const server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: directory.path,
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    const { port } = await server.run();
    const endpoint = `http://127.0.0.1:${port}`;
    const environment = await createTestEnvironment({
      env: { EXPORT_LIMIT_PER_SECOND: '1000', EXPORT_LIMIT_PER_HOUR: '10000', OUTBOUND_ALLOWED_NETWORKS: LOOPBACK },
    });
    const clock = new ManualClock(Date.now());
    const config: AppConfig = environment.config;
    const moduleRef = await Test.createTestingModule({
      imports: [
        PlatformModule.forRoot(config, engineNeeds(config, ['ingest', 'export'])),
        ProjectsModule,
        IngestModule.forRoot(intakeOf(config)),
        ExportModule,
        JobsModule.forRoot({ pollingIntervalSeconds: 0.5, expiryCheckIntervalSeconds: 1 }),
        PipelinesModule.forRoot({ pollingIntervalSeconds: 0.5, retryDelaySeconds: 1, retryLimit: 1, ...settings }),
      ],
    })
      .overrideProvider(Clock)
      .useValue(clock)
      .compile();
    const app = moduleRef.createNestApplication({ bodyParser: false, logger: false });
    app.enableShutdownHooks();
    await app.listen(0, '127.0.0.1');
    const bucket = new S3ObjectStore({
      kind: 's3',
      bucket: BUCKET,
      region: 'us-east-1',
      endpoint,
      forcePathStyle: true,
      prefix: '',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    const baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    return new PipelinesHarness(environment, app, baseUrl, clock, endpoint, bucket, async () => {
      await server.close();
      directory.remove();
    });
  }

  async close(): Promise<void> {
    await this.app.close();
    this.bucket.onModuleDestroy();
    await this.environment.dispose();
    await this.stopS3();
  }

  get runner(): PipelineRunner {
    return this.app.get(PipelineRunner);
  }

  async project(name: string): Promise<{ id: number; auth: string }> {
    const projects = this.app.get(ProjectsService);
    const organization = await projects.createOrganization(`org ${name}`);
    const created = await projects.createProject(organization.id, name);
    return { id: created.project.id, auth: `Basic ${Buffer.from(`${created.secret}:`).toString('base64')}` };
  }

  /** The destination fields of a pipeline into the test bucket. */
  destination(prefix: string): Record<string, string> {
    return {
      type: 's3-raw',
      s3_bucket: BUCKET,
      s3_region: 'us-east-1',
      s3_prefix: prefix,
      s3_endpoint: this.endpoint,
      s3_force_path_style: 'true',
      s3_access_key_id: 'S3RVER',
      s3_secret_access_key: 'S3RVER',
    };
  }

  async import(auth: string, events: RawEvent[]): Promise<void> {
    const response = await fetch(`${this.baseUrl}/import?strict=1`, {
      method: 'POST',
      body: JSON.stringify(events),
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
    });
    if (response.status !== 200) throw new Error(`import: ${response.status} ${await response.text()}`);
  }

  async call(
    method: 'GET' | 'POST',
    path: string,
    auth: string,
    fields: Record<string, string> = {},
  ): Promise<{ status: number; body: any }> {
    const form = new URLSearchParams(fields).toString();
    const url = `${this.baseUrl}/api/2.0/nessie/pipeline/${path}${method === 'GET' ? `?${form}` : ''}`;
    const response = await fetch(url, {
      method,
      headers: {
        Authorization: auth,
        ...(method === 'POST' ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: method === 'POST' ? form : undefined,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  async rawExport(auth: string, fromDate: string, toDate: string): Promise<RawEvent[]> {
    const response = await fetch(`${this.baseUrl}/api/2.0/export?from_date=${fromDate}&to_date=${toDate}`, {
      headers: { Authorization: auth },
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`export: ${response.status} ${text}`);
    return text === ''
      ? []
      : text
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line) as RawEvent);
  }

  async objectKeys(prefix: string): Promise<string[]> {
    return (await this.bucket.list(prefix)).map((o) => o.key);
  }

  async object(key: string): Promise<Buffer> {
    const stored = await this.bucket.get(key);
    if (!stored) throw new Error(`no object ${key}`);
    const chunks: Buffer[] = [];
    for await (const chunk of stored.body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async jsonLines(key: string): Promise<RawEvent[]> {
    const text = gunzipSync(await this.object(key)).toString();
    return text === ''
      ? []
      : text
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line) as RawEvent);
  }
}

export const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
export const at = (day: string, time: string) => Date.parse(`${day}T${time}Z`) / 1000;
/** Events in the export's order-independent form, for comparing sets of rows. */
export const byInsertId = (events: RawEvent[]) =>
  [...events].sort((a, b) => a.properties.$insert_id.localeCompare(b.properties.$insert_id));
