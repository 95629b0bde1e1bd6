import 'reflect-metadata';
import { AppConfig, loadConfig, ServiceName } from '@analytics/config';
import { ensureTopics, topicName, topicSpecs } from '@analytics/kafka';
import { PROFILES_WRITER_GROUP, ProfilesIngestModule, ProfilesWriterModule } from '@analytics/profiles';
import { ProfilesQueryModule } from '@analytics/query';
import { PlatformModule, runService } from '@analytics/runtime';
import { engineNeeds, intakeOf } from '@analytics/service-map';
import { DynamicModule, Type } from '@nestjs/common';
import { Kafka, logLevel } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPostgresDatabase } from '@analytics/testing';
import { createBenchProject, waitReady } from './support/setup';
import { profilesIn, summarizeProfile } from './support/cpu-profile';
import { GroupWatch } from './support/kafka-watch';
import { percentile, round } from './support/load';
import { BenchProcess, cpuSecondsOf, freePort, memoryOf, poll, repoRoot, spawnScript } from './support/processes';

/**
 * `npm run bench:profiles`: profile updates end to end (HTTP /engage → gateway → Kafka → profiles
 * writer → Postgres → ClickHouse mirror) and the mirror's lag (gateway ack → visible in the profile
 * query). A gateway and a writer run as processes of their own, as in production. The last line is
 * JSON with `updates_per_s` and `mirror_lag_p99_ms`.
 *
 * Saturation first (closed loop) for the throughput, then a paced load at 70 % of it for the lag
 * without a backlog: under saturation the lag is the backlog, and grows with the run.
 *
 * BENCH_SECONDS (saturation, default 20), BENCH_PACED_SECONDS (15), BENCH_CLIENTS (4), BENCH_BATCH (updates per request, 1000),
 * BENCH_USERS (100000), BENCH_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_CPU_PROF=1 (V8 CPU profiles of the gateway and the writer, summarised).
 * The same file is the gateway and the writer when PROFILES_BENCH_ROLE says so.
 */

const setting = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SECONDS = setting('BENCH_SECONDS', 20);
const PACED_SECONDS = setting('BENCH_PACED_SECONDS', 15);
const WARMUP_SECONDS = setting('BENCH_WARMUP_SECONDS', 3);
const CLIENTS = setting('BENCH_CLIENTS', 4);
const BATCH = setting('BENCH_BATCH', 1000);
const USERS = setting('BENCH_USERS', 100_000);
const PARTITIONS = 12;
const PROBE_INTERVAL_MS = 200;
const PROFILE = process.env.BENCH_CPU_PROF === '1';
const POSTGRES_ADMIN = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ROLES: Record<string, ServiceName[]> = { gateway: ['ingest'], writer: ['writer', 'query'] };

// kafkajs 2.2.4 re-arms a timer with a negative delay on every connection; known, not worth the noise.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name !== 'TimeoutNegativeWarning') process.stderr.write(`${warning.stack ?? warning.message}\n`);
});

const log = (line: string) => process.stdout.write(`bench: ${line}\n`);

/** A service process of the benchmark: the platform and the profile parts of its role. */
function roleModule(config: AppConfig, services: ServiceName[]): DynamicModule {
  const profileParts: Record<string, (DynamicModule | Type<unknown>)[]> = {
    ingest: [ProfilesIngestModule.forRoot(intakeOf(config))],
    writer: config.kafka ? [ProfilesWriterModule] : [],
    query: [ProfilesQueryModule],
  };
  return {
    module: class ProfilesBenchService {},
    imports: [
      PlatformModule.forRoot(config, engineNeeds(config, services)),
      ...services.flatMap((service) => profileParts[service] ?? []),
    ],
  };
}

/** A realistic mix: mostly `$set`, then counters, lists and first-touch properties, over many users. */
function updateBody(token: string, sequence: number): string {
  const records: object[] = [];
  for (let i = 0; i < BATCH; i++) {
    const n = sequence * BATCH + i;
    const $distinct_id = `user-${(n * 7919) % USERS}`;
    const kind = n % 10;
    const base = { $token: token, $distinct_id };
    if (kind < 5)
      records.push({
        ...base,
        $set: {
          plan: ['free', 'pro', 'team'][n % 3],
          score: n % 1000,
          $name: `User ${n % USERS}`,
          $email: `u${n % USERS}@example.com`,
          city: 'Paris',
        },
      });
    else if (kind < 7) records.push({ ...base, $add: { visits: 1, spend: (n % 50) / 4 } });
    else if (kind < 8) records.push({ ...base, $append: { pages: `/page/${n % 20}` } });
    else if (kind < 9) records.push({ ...base, $union: { tags: [`t${n % 5}`, `t${n % 7}`] } });
    else records.push({ ...base, $set_once: { first_seen: new Date().toISOString().slice(0, 19) } });
  }
  return JSON.stringify(records);
}

interface LoadResult {
  updates: number;
  failures: number;
  latencies: number[];
}

async function sendBatch(gatewayUrl: string, token: string, sequence: number, result: LoadResult): Promise<void> {
  const body = updateBody(token, sequence);
  const started = performance.now();
  const response = await fetch(`${gatewayUrl}/engage`, {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/json' },
  }).catch(() => undefined);
  const text = response ? await response.text() : '';
  if (text === '1') {
    result.updates += BATCH;
    result.latencies.push(performance.now() - started);
  } else result.failures++;
}

/** Closed loop: each client sends its next batch when the last was answered. */
async function closedLoop(
  gatewayUrl: string,
  token: string,
  seconds: number,
  firstSequence: number,
): Promise<LoadResult> {
  const result: LoadResult = { updates: 0, failures: 0, latencies: [] };
  const until = Date.now() + seconds * 1000;
  let sequence = firstSequence;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < until) await sendBatch(gatewayUrl, token, sequence++, result);
    }),
  );
  return result;
}

/** A fixed offered rate, at most 16 requests outstanding. */
async function paced(
  gatewayUrl: string,
  token: string,
  updatesPerSecond: number,
  seconds: number,
  firstSequence: number,
): Promise<LoadResult> {
  const result: LoadResult = { updates: 0, failures: 0, latencies: [] };
  const intervalMs = (BATCH / updatesPerSecond) * 1000;
  const started = Date.now();
  const inFlight = new Set<Promise<void>>();
  for (let k = 0; started + k * intervalMs < started + seconds * 1000; k++) {
    const at = started + k * intervalMs;
    if (at > Date.now()) await new Promise((resolve) => setTimeout(resolve, at - Date.now()));
    if (inFlight.size >= 16) continue;
    const request = sendBatch(gatewayUrl, token, firstSequence + k, result).finally(() => inFlight.delete(request));
    inFlight.add(request);
  }
  await Promise.all(inFlight);
  return result;
}

/**
 * The mirror's lag by sampling: a marker `$set` every PROBE_INTERVAL_MS; once the gateway
 * acknowledged it, the profile query (which reads the mirror) is polled until it shows the value.
 */
class MirrorLagProbe {
  readonly samples: number[] = [];
  private running = false;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly gatewayUrl: string,
    private readonly queryUrl: string,
    private readonly project: { id: number; token: string; authorization: string },
  ) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  private async run(): Promise<void> {
    for (let k = 0; this.running; k++) {
      const distinctId = `probe-${k % 50}`;
      const body = JSON.stringify([{ $token: this.project.token, $distinct_id: distinctId, $set: { marker: k } }]);
      const answer = await fetch(`${this.gatewayUrl}/engage`, {
        method: 'POST',
        body,
        headers: { 'Content-Type': 'application/json' },
      });
      if ((await answer.text()) !== '1') continue;
      const ackedAt = Date.now();
      await poll(
        async () => {
          const response = await fetch(
            `${this.queryUrl}/api/query/engage?project_id=${this.project.id}&distinct_id=${distinctId}`,
            {
              headers: { Authorization: this.project.authorization },
            },
          );
          const answer = (await response.json()) as { results?: { $properties: { marker?: number } }[] };
          if (!answer.results)
            throw new Error(`the profile query answered ${response.status}: ${JSON.stringify(answer)}`);
          const { results } = answer;
          if (results[0]?.$properties.marker !== k) throw new Error('not yet');
        },
        60_000,
        10,
      );
      this.samples.push(Date.now() - ackedAt);
      await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
    }
  }
}

async function main(): Promise<Record<string, unknown>> {
  const root = repoRoot();
  const run = randomBytes(2).toString('hex');
  const work = mkdtempSync(join(tmpdir(), 'bench-profiles-'));
  const cleanups: (() => Promise<unknown>)[] = [async () => rmSync(work, { recursive: true, force: true })];
  const services: BenchProcess[] = [];
  const stopAll = async () => {
    await Promise.allSettled(services.splice(0).map((s) => s.stop(5_000)));
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  };
  process.once('SIGINT', () => void stopAll().finally(() => process.exit(130)));
  process.once('SIGTERM', () => void stopAll().finally(() => process.exit(143)));

  try {
    const machine = { cpus: cpus().length, model: cpus()[0]?.model, node: process.version };
    log(
      `machine ${JSON.stringify(machine)}; load average before start ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const kafkaScript = require(join(root, 'scripts', 'kafka.js')) as {
      startKafka(options: {
        port: number;
        dataDir: string;
      }): Promise<{ brokers: string; pid: number; stop(): Promise<void> }>;
      findFreePort(): Promise<number>;
    };
    const broker = await kafkaScript.startKafka({
      port: await kafkaScript.findFreePort(),
      dataDir: join(work, 'kafka', 'data'),
    });
    cleanups.push(() => broker.stop());
    const database = await createPostgresDatabase(
      POSTGRES_ADMIN,
      `bench_profiles_${run}_${randomBytes(3).toString('hex')}`,
    );
    cleanups.push(() => database.dispose());

    const env: Record<string, string> = {
      HOST: '127.0.0.1',
      DATA_DIR: join(work, 'data'),
      CLICKHOUSE_URL: `chdb:${join(work, 'clickhouse')}`,
      DATABASE_URL: database.url,
      KAFKA_BROKERS: broker.brokers,
      KAFKA_TOPIC_PREFIX: `bench${run}.`,
      KAFKA_PROFILES_PARTITIONS: String(PARTITIONS),
      LOG_LEVEL: 'warn',
      INGEST_LIMIT_EVENTS_PER_MINUTE: '1000000000',
      // The lag probe polls the profile query, which spends the query API's quota (3 a second by default).
      QUERY_LIMIT_PER_SECOND: '1000',
      QUERY_LIMIT_PER_HOUR: '10000000',
      QUERY_LIMIT_CONCURRENT: '100',
    };
    const config = loadConfig(env);
    const project = await createBenchProject(config);
    const kafka = new Kafka({ clientId: 'bench', brokers: [broker.brokers], logLevel: logLevel.NOTHING });
    await ensureTopics(kafka, topicSpecs(config.kafka!));
    const admin = kafka.admin();
    await admin.connect();
    cleanups.push(() => admin.disconnect());

    const script = join(root, 'dist/bench/profiles.js');
    const profileDir = join(work, 'cpu-profiles');
    const nodeFlags = (name: string) =>
      PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}.cpuprofile`] : [];
    const [writerPort, gatewayPort] = [await freePort(), await freePort()];
    const writerUrl = `http://127.0.0.1:${writerPort}`;
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    const writer = spawnScript(
      'writer',
      script,
      { ...env, PORT: String(writerPort), PROFILES_BENCH_ROLE: 'writer' },
      nodeFlags('writer'),
    );
    services.push(writer);
    await waitReady(writer, writerUrl);
    const gateway = spawnScript(
      'gateway',
      script,
      { ...env, PORT: String(gatewayPort), PROFILES_BENCH_ROLE: 'gateway' },
      nodeFlags('gateway'),
    );
    services.push(gateway);
    await waitReady(gateway, gatewayUrl);
    const watch = new GroupWatch(
      admin,
      topicName(config.kafka!, 'profiles'),
      `${config.kafka!.topicPrefix}${PROFILES_WRITER_GROUP}`,
    );

    log(`warm-up ${WARMUP_SECONDS} s, ${CLIENTS} clients, ${BATCH}-update requests over ${USERS} users`);
    await closedLoop(gatewayUrl, project.token, WARMUP_SECONDS, 0);
    await watch.drained(120_000);

    const cpuBefore = {
      gateway: cpuSecondsOf(gateway.pid),
      writer: cpuSecondsOf(writer.pid),
      broker: cpuSecondsOf(broker.pid),
    };
    const saturatedProbe = new MirrorLagProbe(gatewayUrl, writerUrl, project);
    const started = Date.now();
    saturatedProbe.start();
    const load = await closedLoop(gatewayUrl, project.token, SECONDS, 1_000_000);
    const sendingEnded = Date.now();
    const drainedAt = await watch.drained(300_000);
    await saturatedProbe.stop();
    const wall = (drainedAt - started) / 1000;
    const cores = Object.fromEntries(
      Object.entries({ gateway: gateway.pid, writer: writer.pid, broker: broker.pid }).map(([name, pid]) => [
        name,
        round((cpuSecondsOf(pid) - cpuBefore[name as keyof typeof cpuBefore]) / wall, 2),
      ]),
    );
    const updatesPerSecond = load.updates / wall;
    log(
      `saturation: ${load.updates} updates acknowledged in ${SECONDS} s, all written ${drainedAt - sendingEnded} ms after the last ack; cores ${JSON.stringify(cores)}`,
    );

    const pacedRate = Math.max(BATCH, Math.round((updatesPerSecond * 0.7) / BATCH) * BATCH);
    const probe = new MirrorLagProbe(gatewayUrl, writerUrl, project);
    probe.start();
    const steady = await paced(gatewayUrl, project.token, pacedRate, PACED_SECONDS, 2_000_000);
    await watch.drained(300_000);
    await probe.stop();
    log(
      `paced at ${pacedRate} updates/s offered: ${steady.updates} acknowledged, ${steady.failures} failed; mirror lag over ${probe.samples.length} markers p50/p99 ${percentile(probe.samples, 50)}/${percentile(probe.samples, 99)} ms`,
    );
    const metrics = await (await fetch(`${writerUrl}/metrics`)).text();
    const metric = (name: string) => Number(new RegExp(`^${name} ([\\d.e+]+)$`, 'm').exec(metrics)?.[1] ?? NaN);
    const result = {
      date: new Date().toISOString(),
      machine,
      updates_per_s: Math.round(updatesPerSecond),
      paced_offered_updates_per_s: pacedRate,
      mirror_lag_p50_ms: percentile(probe.samples, 50),
      mirror_lag_p99_ms: percentile(probe.samples, 99),
      mirror_lag_samples: probe.samples.length,
      saturated_mirror_lag_p99_ms: percentile(saturatedProbe.samples, 99),
      writer_batches: metric('analytics_profiles_apply_seconds_count'),
      writer_postgres_ms_per_batch: round(
        (metric('analytics_profiles_apply_seconds_sum') / metric('analytics_profiles_apply_seconds_count')) * 1000,
      ),
      acknowledged_updates_per_s: Math.round(load.updates / ((sendingEnded - started) / 1000)),
      written_after_last_ack_ms: drainedAt - sendingEnded,
      request_p50_ms: round(percentile(load.latencies, 50)),
      request_p99_ms: round(percentile(load.latencies, 99)),
      updates_per_request: BATCH,
      clients: CLIENTS,
      failures: load.failures + steady.failures,
      cores,
      gateway_rss_mb: Math.round(memoryOf(gateway.pid)?.peakRssMb ?? NaN),
      writer_rss_mb: Math.round(memoryOf(writer.pid)?.peakRssMb ?? NaN),
    };
    log(`load average now ${loadavg()[0].toFixed(2)}`);
    if (PROFILE) {
      await Promise.all(services.splice(0).map((s) => s.stop()));
      for (const profile of profilesIn(profileDir).map(summarizeProfile)) log(`cpu profile ${JSON.stringify(profile)}`);
    }
    return result;
  } catch (error) {
    for (const s of services)
      process.stderr.write(`--- ${s.name} (pid ${s.pid}) output:\n${s.output().slice(-6000)}\n`);
    throw error;
  } finally {
    await stopAll();
  }
}

const role = process.env.PROFILES_BENCH_ROLE;
if (role) {
  void runService((config) => roleModule(config, ROLES[role]), `Profiles bench ${role}`);
} else {
  main().then(
    (result) => {
      process.stdout.write(`${JSON.stringify(result)}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      process.stderr.write(`bench failed: ${(error as Error).stack}\n`);
      process.exit(1);
    },
  );
}
