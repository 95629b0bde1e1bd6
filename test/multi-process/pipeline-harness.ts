import { createClickHouseClient } from '@analytics/clickhouse';
import { AppConfig, ConfigModule, loadConfig } from '@analytics/config';
import { EVENTS_WRITER_GROUP } from '@analytics/event-writer';
import { createKafka, ensureTopics, Kafka, topicName, topicSpecs } from '@analytics/kafka';
import { AssignerProtocol } from 'kafkajs';
import { PostgresMigrator, PostgresModule } from '@analytics/postgres';
import { ProjectsModule, ProjectsService } from '@analytics/projects';
import {
  createTestDatabase,
  eventually,
  freePort,
  ServiceProcess,
  spawnService,
  temporaryDirectory,
  uniqueTopicPrefix,
} from '@analytics/testing';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

/**
 * Gateways and writers as separate processes (the built apps, as a container runs them) on one
 * broker, one Postgres database and one chDB directory, with the helpers the multi-process and
 * fault tests share: a retrying load client that remembers what was acknowledged, the consumer
 * group's lag, and an exactly-once check of what ClickHouse holds.
 */

export interface PipelineProject {
  id: number;
  token: string;
  secret: string;
  basic: string;
}

export interface RunningService {
  name: string;
  process: ServiceProcess;
  url: string;
}

async function httpStatus(url: string): Promise<number> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

/** Migrates Postgres and creates the project through ProjectsService, on a connection of our own. */
async function createProject(config: AppConfig): Promise<PipelineProject> {
  @Module({ imports: [ConfigModule.forRoot(config), PostgresModule, ProjectsModule] })
  class ProjectSetupModule {}
  const context = await NestFactory.createApplicationContext(ProjectSetupModule, { logger: ['error', 'warn'] });
  try {
    await context.get(PostgresMigrator).migrate();
    const projects = context.get(ProjectsService);
    const organization = await projects.createOrganization('Multi-process');
    const { project, secret } = await projects.createProject(organization.id, 'Multi-process');
    return {
      id: project.id,
      token: project.token,
      secret,
      basic: `Basic ${Buffer.from(`${secret}:`).toString('base64')}`,
    };
  } finally {
    await context.close();
  }
}

export interface PipelineOptions {
  brokers: string;
  partitions?: number;
  /** Extra variables for every process. */
  env?: Record<string, string>;
}

/**
 * One installation spread over processes. Postgres is migrated, the project created and the topics
 * made here, once, before any service starts, so the services never race each other doing it.
 */
export class Pipeline {
  readonly services: RunningService[] = [];
  private constructor(
    readonly env: Record<string, string>,
    readonly project: PipelineProject,
    readonly chdbDir: string,
    readonly topic: string,
    readonly group: string,
    private readonly cleanups: (() => Promise<void> | void)[],
  ) {}

  static async create(options: PipelineOptions): Promise<Pipeline> {
    const cleanups: (() => Promise<void> | void)[] = [];
    try {
      const database = await createTestDatabase('server');
      cleanups.push(() => database.dispose());
      const dataDir = temporaryDirectory('pipeline');
      cleanups.push(() => dataDir.remove());
      const partitions = String(options.partitions ?? 4);
      const env: Record<string, string> = {
        HOST: '127.0.0.1',
        DATA_DIR: join(dataDir.path, 'data'),
        CLICKHOUSE_URL: `chdb:${join(dataDir.path, 'clickhouse')}`,
        DATABASE_URL: database.url,
        KAFKA_BROKERS: options.brokers,
        KAFKA_TOPIC_PREFIX: uniqueTopicPrefix(),
        KAFKA_EVENTS_PARTITIONS: partitions,
        KAFKA_PROFILES_PARTITIONS: partitions,
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
        ...options.env,
      };
      const config = loadConfig(env);
      const project = await createProject(config);
      await ensureTopics(createKafka(config.kafka!), topicSpecs(config.kafka!));
      return new Pipeline(
        env,
        project,
        join(dataDir.path, 'clickhouse'),
        topicName(config.kafka!, 'events'),
        `${config.kafka!.topicPrefix}${EVENTS_WRITER_GROUP}`,
        cleanups,
      );
    } catch (error) {
      for (const cleanup of cleanups.reverse()) await cleanup();
      throw error;
    }
  }

  /** Spawns a built app on a free port and waits for /readyz. */
  async start(app: 'ingest' | 'writer', name: string, env: Record<string, string> = {}): Promise<RunningService> {
    const service = await this.spawn(app, name, env);
    await this.waitReady(service);
    return service;
  }

  async spawn(app: 'ingest' | 'writer', name: string, env: Record<string, string> = {}): Promise<RunningService> {
    const port = await freePort();
    const service: RunningService = {
      name,
      process: spawnService(app, { ...this.env, PORT: String(port), ...env }),
      url: `http://127.0.0.1:${port}`,
    };
    this.services.push(service);
    return service;
  }

  async waitReady(service: RunningService, timeoutMs = 45_000): Promise<void> {
    await eventually(
      async () => {
        if (service.process.child.exitCode !== null)
          throw new Error(`${service.name} exited during start:\n${service.process.output()}`);
        if ((await httpStatus(`${service.url}/readyz`)) !== 200)
          throw new Error(`${service.name} is not ready:\n${service.process.output()}`);
      },
      { timeoutMs, intervalMs: 100 },
    );
  }

  /** A counter or gauge from the service's /metrics, or undefined when it does not answer. */
  async metric(service: RunningService, name: string): Promise<number | undefined> {
    try {
      const response = await fetch(`${service.url}/metrics`, { signal: AbortSignal.timeout(2_000) });
      const line = (await response.text())
        .split('\n')
        .find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
      return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Until the writer has inserted more than `above` rows itself (so the group gave it partitions, or
   * its inserts go through again); the count it reached.
   */
  async waitForInserts(writer: RunningService, above = 0, timeoutMs = 60_000): Promise<number> {
    try {
      return await eventually(
        async () => {
          if (writer.process.child.exitCode !== null)
            throw new Error(`${writer.name} exited:\n${writer.process.output()}`);
          const rows = (await this.metric(writer, 'analytics_writer_rows_inserted_total')) ?? 0;
          if (rows <= above)
            throw new Error(`${writer.name} inserted no more than ${above} rows in ${timeoutMs / 1000} s`);
          return rows;
        },
        { timeoutMs, intervalMs: 100 },
      );
    } catch (error) {
      throw new Error(
        `${(error as Error).message}\n${await this.groupState()}\n--- ${writer.name}\n${writer.process.output().slice(-4000)}`,
      );
    }
  }

  /** The writer group's members, their partitions, and each partition's committed and end offsets: what a stuck test shows. */
  async groupState(kafka: Kafka = this.kafka()): Promise<string> {
    const admin = kafka.admin();
    await admin.connect();
    try {
      const [{ groups }, ends, [committed]] = await Promise.all([
        admin.describeGroups([this.group]),
        admin.fetchTopicOffsets(this.topic),
        admin.fetchOffsets({ groupId: this.group, topics: [this.topic] }),
      ]);
      const members = groups[0].members.map((m) => {
        const assignment = AssignerProtocol.MemberAssignment.decode(m.memberAssignment)?.assignment ?? {};
        return `${m.clientHost} ${m.memberId}: ${JSON.stringify(assignment)}`;
      });
      const offsets = ends.map(
        (e) =>
          `${e.partition}: committed ${committed.partitions.find((c) => c.partition === e.partition)?.offset} of ${e.high}`,
      );
      return `group ${this.group} ${groups[0].state}\n${members.join('\n')}\n${offsets.join('\n')}`;
    } catch (error) {
      return `group state unavailable: ${(error as Error).message}`;
    } finally {
      await admin.disconnect();
    }
  }

  /** The writer drains (SIGTERM: insert and commit what it holds) and must exit cleanly. */
  async stop(service: RunningService): Promise<number | null> {
    const code = await service.process.stop(15_000);
    this.services.splice(this.services.indexOf(service), 1);
    return code;
  }

  kill(service: RunningService): Promise<number | null> {
    service.process.child.kill('SIGKILL');
    this.services.splice(this.services.indexOf(service), 1);
    return service.process.exited;
  }

  kafka(brokers = this.env.KAFKA_BROKERS): Kafka {
    return createKafka({ ...loadConfig(this.env).kafka!, brokers: brokers.split(','), clientId: 'pipeline-test' });
  }

  /** Messages in the events topic that the writer group has not committed yet (after its insert). */
  async lag(kafka: Kafka = this.kafka()): Promise<number> {
    const admin = kafka.admin();
    await admin.connect();
    try {
      const [ends, [committed]] = await Promise.all([
        admin.fetchTopicOffsets(this.topic),
        admin.fetchOffsets({ groupId: this.group, topics: [this.topic] }),
      ]);
      const done = new Map(committed.partitions.map((p) => [p.partition, BigInt(p.offset)]));
      return ends.reduce((sum, p) => {
        const at = done.get(p.partition) ?? -1n;
        return sum + Number(BigInt(p.high) - (at < 0n ? BigInt(p.low) : at));
      }, 0);
    } finally {
      await admin.disconnect();
    }
  }

  /** Until the writer group has nothing left to write; failing, with every process's last output. */
  async waitUntilWritten(timeoutMs = 60_000): Promise<void> {
    const kafka = this.kafka();
    await eventually(
      async () => {
        const lag = await this.lag(kafka);
        if (lag !== 0) throw new Error(`the writer group still has ${lag} messages to write`);
      },
      { timeoutMs, intervalMs: 200 },
    ).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}\n${this.outputs()}`);
    });
  }

  outputs(): string {
    return this.services.map((s) => `--- ${s.name}\n${s.process.output().slice(-4000)}`).join('\n');
  }

  /** Stops every process still running (SIGKILL after the grace period), then removes the engines. */
  async dispose(): Promise<void> {
    await Promise.allSettled(this.services.splice(0).map((s) => s.process.stop(5_000)));
    for (const cleanup of this.cleanups.reverse()) await cleanup();
  }
}

export interface TestEvent {
  event: string;
  properties: Record<string, unknown> & { time: number; distinct_id: string; $insert_id: string };
}

/** Deterministic per insert id: a resend is the same event (the same dedup key). */
export function makeEvent(insertId: string, n: number, baseTimeMs: number): TestEvent {
  return {
    event: n % 3 === 0 ? 'Signed up' : 'Viewed page',
    properties: {
      time: baseTimeMs - (n % 50_000),
      distinct_id: `user-${n % 997}`,
      $insert_id: insertId,
      n,
      plan: n % 2 ? 'pro' : 'free',
      path: `/page/${n % 31}`,
    },
  };
}

/** Insert ids unique to this run (the dedup key holds the id, so reruns never collide). */
export function eventBatch(prefix: string, from: number, count: number, baseTimeMs: number): TestEvent[] {
  return Array.from({ length: count }, (_, i) => makeEvent(`${prefix}-${from + i}`, from + i, baseTimeMs));
}

export const runId = () => randomBytes(4).toString('hex');

export interface ImportResult {
  status: number;
  attempts: number;
}

/** One HTTP attempt of a {@link RetryingImporter.send}, for tests that look at every answer. */
export interface ImportAttempt {
  events: TestEvent[];
  url: string;
  attempt: number;
  /** The HTTP status, or 0 when the connection broke or the client's timeout fired. */
  status: number;
  /** The answer's body when it was not a 200, or the client-side error. */
  error?: string;
  sentAt: number;
  answeredAt: number;
}

/**
 * How a real server-side client sends: POST /import with a request timeout, and on 503, 429, a
 * broken connection or a timeout it retries the same batch with exponential backoff and jitter.
 * A 200 means every event is persisted.
 */
export class RetryingImporter {
  readonly acked = new Set<string>();
  readonly attempted = new Set<string>();
  requests = 0;
  retries = 0;
  unavailable = 0;
  connectionErrors = 0;
  timeouts = 0;
  slowestRequestMs = 0;

  /** What the client went through, as the fault tests report it. */
  summary() {
    return {
      requests: this.requests,
      retries: this.retries,
      answers503: this.unavailable,
      connectionErrors: this.connectionErrors,
      clientTimeouts: this.timeouts,
      slowestRequestMs: this.slowestRequestMs,
    };
  }

  constructor(
    private readonly basic: string,
    private readonly options: {
      maxBackoffMs?: number;
      giveUpAfterMs?: number;
      requestTimeoutMs?: number;
      /** Told of every attempt once it is answered or failed. */
      onAttempt?: (attempt: ImportAttempt) => void;
    } = {},
  ) {}

  async send(urls: string[], events: TestEvent[]): Promise<ImportResult> {
    const body = JSON.stringify(events);
    events.forEach((e) => this.attempted.add(e.properties.$insert_id));
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      const url = urls[(attempt - 1) % urls.length];
      let status = 0;
      let detail: string | undefined;
      this.requests++;
      const sentAt = Date.now();
      try {
        const response = await fetch(`${url}/import?strict=1`, {
          method: 'POST',
          body,
          headers: { Authorization: this.basic, 'Content-Type': 'application/json' },
          signal: AbortSignal.timeout(this.options.requestTimeoutMs ?? 30_000),
        });
        status = response.status;
        const reply = await response.text();
        if (status === 200) {
          events.forEach((e) => this.acked.add(e.properties.$insert_id));
          return { status, attempts: attempt };
        }
        detail = reply;
        if (status !== 503 && status !== 429) throw new Error(`/import answered ${status}: ${reply}`);
        this.unavailable++;
      } catch (error) {
        if (status !== 0) throw error;
        const cause = (error as Error & { cause?: Error }).cause;
        detail = `${(error as Error).name}: ${(error as Error).message}${cause ? ` (${cause.message})` : ''}`;
        if ((error as Error).name === 'TimeoutError') this.timeouts++;
        else this.connectionErrors++;
      } finally {
        this.slowestRequestMs = Math.max(this.slowestRequestMs, Date.now() - sentAt);
        this.options.onAttempt?.({ events, url, attempt, status, error: detail, sentAt, answeredAt: Date.now() });
      }
      if (Date.now() - started > (this.options.giveUpAfterMs ?? 120_000)) return { status, attempts: attempt };
      this.retries++;
      const backoff = Math.min(100 * 2 ** Math.min(attempt - 1, 6), this.options.maxBackoffMs ?? 2_000);
      await new Promise((resolve) => setTimeout(resolve, backoff / 2 + Math.random() * (backoff / 2)));
    }
  }
}

export interface StoredCount {
  /** Rows the events table returns with FINAL (what every query sees). */
  final: number;
  /** Distinct dedup keys (project, event, time, distinct_id, insert id) among all stored rows. */
  distinctKeys: number;
  /** Rows physically stored before merges collapse duplicates. */
  raw: number;
  /** insert id → rows under FINAL. */
  perInsertId: Map<string, number>;
}

/** Opens the writer's chDB directory (the writer must be stopped: one process per directory). */
export async function readStored(chdbDir: string, projectId: number): Promise<StoredCount> {
  const clickhouse = createClickHouseClient(`chdb:${chdbDir}`);
  try {
    const one = async <T>(query: string): Promise<T[]> =>
      (await clickhouse.query({ query, query_params: { project: projectId }, format: 'JSONEachRow' })).json<T>();
    const [{ final }] = await one<{ final: number }>(
      'SELECT count() AS final FROM events FINAL WHERE project_id = {project:UInt32}',
    );
    const [{ keys, raw }] = await one<{ keys: number; raw: number }>(
      'SELECT uniqExact(event, time, distinct_id, insert_id) AS keys, count() AS raw FROM events WHERE project_id = {project:UInt32}',
    );
    const rows = await one<{ insert_id: string; c: number }>(
      'SELECT insert_id, count() AS c FROM events FINAL WHERE project_id = {project:UInt32} GROUP BY insert_id',
    );
    return { final, distinctKeys: keys, raw, perInsertId: new Map(rows.map((r) => [r.insert_id, r.c])) };
  } finally {
    await clickhouse.close();
  }
}

export interface ExactlyOnce {
  acked: number;
  stored: number;
  lost: number;
  duplicated: number;
  /** Stored events that no client ever sent (must be 0). */
  unknown: number;
  distinctKeys: number;
  raw: number;
}

/** Compares what ClickHouse holds with what the gateways acknowledged. */
export function compareWithAcked(stored: StoredCount, acked: Set<string>, attempted: Set<string>): ExactlyOnce {
  let lost = 0;
  for (const id of acked) if (!stored.perInsertId.has(id)) lost++;
  let duplicated = 0;
  let unknown = 0;
  for (const [id, count] of stored.perInsertId) {
    duplicated += count - 1;
    if (!attempted.has(id)) unknown += count;
  }
  return {
    acked: acked.size,
    stored: stored.final,
    lost,
    duplicated,
    unknown,
    distinctKeys: stored.distinctKeys,
    raw: stored.raw,
  };
}
