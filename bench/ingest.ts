import 'reflect-metadata';
import { loadConfig } from '@analytics/config';
import { ensureTopics, groupId, topicName, topicSpecs } from '@analytics/kafka';
import { Kafka, logLevel } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createPostgresDatabase } from '@analytics/testing';
import { createBenchProject, waitReady } from './support/setup';
import { profilesIn, ProfileSummary, summarizeProfile } from './support/cpu-profile';
import { startBarePipeline } from './support/bare-pipeline';
import { topicLogBytes } from './support/topic-bytes';
import { buildTemplates, EVENTS_PER_BATCH } from './support/event-bodies';
import { FreshnessProbe, GroupWatch } from './support/kafka-watch';
import { LoadGenerator, LoadResult, percentile, round } from './support/load';
import { ClickHouseEngine, clickhouseMode, startClickHouseEngine } from './support/clickhouse-engine';
import {
  BenchProcess,
  cpuSecondsOf,
  freePort,
  GATEWAY_ENV,
  GATEWAY_NODE_FLAGS,
  machineCpuSeconds,
  memoryOf,
  nodeFlagsFrom,
  repoRoot,
  residentOf,
  spawnScript,
  threadCpuSecondsOf,
} from './support/processes';

/**
 * `npm run bench:ingest`: end-to-end ingestion throughput (HTTP → gateway → Kafka → writer →
 * ClickHouse) on this machine, against the bare pipeline (kafkajs producing the same rows, a
 * consumer inserting the same bytes), with latency, freshness, memory and where the CPU went.
 * Starts and stops everything it uses; all traffic stays on 127.0.0.1. The last line is JSON.
 *
 * BENCH_ROUNDS (saturation rounds, default 3: ours and the bare pipeline's in turn, the ratio their median),
 * BENCH_SECONDS (our pipeline's saturation per round, default 10), BENCH_BARE_SECONDS (the bare pipeline's, 10),
 * BENCH_CLIENTS (4), BENCH_PACED_SECONDS (12), BENCH_CPU_PROF=1 (V8 CPU profiles of the gateway and writer, summarised),
 * BENCH_KEEP_DIR=<dir> (keeps the raw profiles and the services' output there),
 * BENCH_BARE_SPLIT=1 (the bare producer splits batches by partition as the gateway does),
 * BENCH_APP_<NAME>=<value> (passes <NAME> to the gateway and writer, e.g. BENCH_APP_WRITER_MAX_BATCH_ROWS),
 * BENCH_WRITER_NODE_FLAGS (Node flags for the writer; default --max-semi-space-size=4 --heap-growing-percent=50, as the image runs it),
 * BENCH_GATEWAY_NODE_FLAGS (Node flags for the gateway; default --max-semi-space-size=16 --no-allocation-site-pretenuring --heap-growing-percent=50, as the image runs it),
 * BENCH_GATEWAY_ENV_<NAME>=<value> (a variable of the gateway's process alone, e.g. BENCH_GATEWAY_ENV_MALLOC_ARENA_MAX=2;
 * MALLOC_MMAP_THRESHOLD_ is 131072 unless set, as the image runs it),
 * BENCH_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_CLICKHOUSE=chdb|server (default chdb: the writers open chDB in-process; server: the writer
 * and the bare writer talk HTTP, as in production, to a ClickHouse stand-in of their own,
 * bench/support/clickhouse-server.ts, whose memory and CPU are reported as the engine's),
 * BENCH_ENGINE_NICE (server mode: the stand-ins' Linux nice value, default 0; 19 leaves the engine only
 * the CPU the other processes do not take, a diagnosis of where the latency's tail comes from).
 */

const setting = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SATURATION_SECONDS = setting('BENCH_SECONDS', 10);
const PACED_SECONDS = setting('BENCH_PACED_SECONDS', 12);
const BARE_SECONDS = setting('BENCH_BARE_SECONDS', 10);
/** Saturation rounds, ours and the bare pipeline's in turn; the ratio is their median. */
const ROUNDS = setting('BENCH_ROUNDS', 3);
const BARE_WARMUP_SECONDS = 10;
// 60 s: a 4 s warm-up charged the broker's compilers to our pipeline alone, which runs first
// (docs/benchmarks/2026-11-25-issue-21-second-pass.md).
const WARMUP_SECONDS = setting('BENCH_WARMUP_SECONDS', 60);
const CLIENTS = setting('BENCH_CLIENTS', 4);
/** The product's default; BENCH_APP_KAFKA_EVENTS_PARTITIONS changes it for both pipelines. */
const DEFAULT_PARTITIONS = 12;
const USERS = 100_000;
const PROFILE = process.env.BENCH_CPU_PROF === '1';
const BARE_SPLIT = process.env.BENCH_BARE_SPLIT === '1';
const POSTGRES_ADMIN = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CLICKHOUSE = clickhouseMode();
/** The stand-in's name in the CPU and memory figures (server mode). */
const ENGINE = 'engine (ClickHouse stand-in)';

// kafkajs 2.2.4 re-arms a 1 ms timer with a negative delay on every connection (kafkajs#1704,
// #1751); Node 24 warns each time. Known and measured (docs/benchmarks/2026-11-22-issue-4-ingest.md): not
// worth the noise.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name !== 'TimeoutNegativeWarning') process.stderr.write(`${warning.stack ?? warning.message}\n`);
});

const log = (line: string) => process.stdout.write(`bench: ${line}\n`);

/** This process's variables named `<prefix><NAME>`, as NAME=value (the bench's pass-through settings). */
const variablesAfterPrefix = (prefix: string): Record<string, string> =>
  Object.fromEntries(
    Object.entries(process.env)
      .filter(([name, value]) => name.startsWith(prefix) && value !== undefined)
      .map(([name, value]) => [name.slice(prefix.length), value!]),
  );
const mb = (value: number | undefined) => (value === undefined ? NaN : Math.round(value));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits (at most 15 s) until the machine has been quiet for half a second: under half a core busy, so
 * that the last phase's background work (the engines' merges, the writers' last commits) is not
 * charged to the next. The ms waited.
 */
async function quiet(): Promise<number> {
  const started = Date.now();
  for (let before = machineCpuSeconds(); Date.now() - started < 15_000;) {
    await sleep(500);
    const now = machineCpuSeconds();
    if ((now.busy - before.busy) / 0.5 < 0.5) break;
    before = now;
  }
  return Date.now() - started;
}

/** The phases' loads as one (rounds of the same phase). */
function mergeLoads(loads: LoadResult[]): LoadResult {
  const merged: LoadResult = { requests: 0, events: 0, failures: 0, statuses: {}, latencies: [], seconds: 0 };
  for (const load of loads) {
    merged.requests += load.requests;
    merged.events += load.events;
    merged.failures += load.failures;
    merged.seconds += load.seconds;
    merged.latencies.push(...load.latencies);
    for (const [status, count] of Object.entries(load.statuses))
      merged.statuses[status] = (merged.statuses[status] ?? 0) + count;
  }
  return merged;
}

/**
 * One closed-loop phase of a round, once the machine is quiet: `send` under the meter, then until
 * `drained` (the moment its writer group had committed everything) says all is written.
 */
async function saturate(meter: CpuMeter, send: () => Promise<number>, drained: () => Promise<number>) {
  const waitedForQuietMs = await quiet();
  meter.start();
  const started = Date.now();
  const events = await send();
  const sendingEnded = Date.now();
  const drainedAt = await drained();
  meter.stop();
  return {
    events,
    eventsPerSecond: events / ((drainedAt - started) / 1000),
    writtenAfterLastAckMs: drainedAt - sendingEnded,
    waitedForQuietMs,
  };
}

/** One saturation round: our pipeline's rate and then the bare pipeline's, each until all is written. */
interface SaturationRound {
  events_per_s: number;
  bare_events_per_s: number;
  ratio: number;
  written_after_last_ack_ms: number;
  bare_written_after_last_ack_ms: number;
  /** How long each phase waited for the machine to be quiet first. */
  waited_for_quiet_ms: [number, number];
}

interface Broker {
  brokers: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * CPU seconds per component over one or more windows (`start` … `stop`), as cores used: the rounds
 * of a phase add up into one report.
 */
class CpuMeter {
  private open: CpuSnapshot | undefined;
  private wall = 0;
  private machine = { busy: 0, total: 0 };
  private readonly used: Record<string, number> = {};
  private readonly usedByBrokerThread: Record<string, number> = {};
  constructor(private readonly pids: () => Record<string, number>) {}

  private snapshot(): CpuSnapshot {
    const pids = this.pids();
    const per: Record<string, number> = {};
    for (const [name, pid] of Object.entries(pids)) per[name] = cpuSecondsOf(pid);
    const self = process.cpuUsage();
    per['bench (load generator)'] = (self.user + self.system) / 1e6;
    return {
      at: Date.now(),
      machine: machineCpuSeconds(),
      per,
      brokerThreads: pids.broker ? threadCpuSecondsOf(pids.broker) : {},
    };
  }

  start(): this {
    this.open = this.snapshot();
    return this;
  }

  stop(): void {
    const [begin, end] = [this.open!, this.snapshot()];
    this.open = undefined;
    this.wall += (end.at - begin.at) / 1000;
    this.machine.busy += end.machine.busy - begin.machine.busy;
    this.machine.total += end.machine.total - begin.machine.total;
    for (const [name, seconds] of Object.entries(end.per))
      this.used[name] = (this.used[name] ?? 0) + seconds - (begin.per[name] ?? seconds);
    for (const [name, seconds] of Object.entries(end.brokerThreads)) {
      this.usedByBrokerThread[name] =
        (this.usedByBrokerThread[name] ?? 0) + seconds - (begin.brokerThreads[name] ?? seconds);
    }
  }

  /**
   * Cores used by each component and by everything else on the machine; CPU microseconds per event
   * of each component; and the rate our components would reach if they had the machine's cores to
   * themselves (cores ÷ their CPU per event): other engineers' work shares these cores.
   */
  report(events: number): CpuReport {
    if (this.open) this.stop();
    const cores: Record<string, number> = {};
    const perEvent: Record<string, number> = {};
    let ours = 0;
    for (const [name, used] of Object.entries(this.used)) {
      ours += used;
      cores[name] = round(used / this.wall, 2);
      perEvent[name] = round((used / events) * 1e6, 1);
    }
    const machineCores = this.machine.total / this.wall;
    cores['other processes'] = round(Math.max(0, this.machine.busy - ours) / this.wall, 2);
    cores['machine busy'] = round(this.machine.busy / this.wall, 2);
    // The broker's threads that used 0.1 µs per event or more, most first: its GC and JIT show here.
    const brokerThreads = Object.entries(this.usedByBrokerThread)
      .map(([name, used]): [string, number] => [name, round((used / events) * 1e6, 1)])
      .filter(([, perEventUs]) => perEventUs >= 0.1)
      .sort(([, a], [, b]) => b - a);
    return {
      cores,
      cpu_us_per_event: perEvent,
      broker_threads_us_per_event: Object.fromEntries(brokerThreads),
      projected_events_per_s_alone: Math.round((Math.round(machineCores) * events) / ours),
    };
  }
}

interface CpuSnapshot {
  at: number;
  machine: { busy: number; total: number };
  per: Record<string, number>;
  /** CPU seconds of the broker's threads by name (tells G1 and the JIT from request handling). */
  brokerThreads: Record<string, number>;
}

interface CpuReport {
  cores: Record<string, number>;
  cpu_us_per_event: Record<string, number>;
  broker_threads_us_per_event: Record<string, number>;
  /** Our components' events per second if they had all the machine's cores (none used by others). */
  projected_events_per_s_alone: number;
}

function describeLoad(result: LoadResult) {
  return {
    requests: result.requests,
    events: result.events,
    failures: result.failures,
    statuses: result.statuses,
    ingest_events_per_s: Math.round(result.events / result.seconds),
    p50_ms: round(percentile(result.latencies, 50)),
    p99_ms: round(percentile(result.latencies, 99)),
    max_ms: round(Math.max(...result.latencies)),
  };
}

/** V8 heap and Buffer memory of a service, from its /metrics (prom-client's default metrics), MB. */
async function heapBreakdown(port: number): Promise<Record<string, number>> {
  try {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const megabytes = (bytes: string | undefined) => mb(Number(bytes ?? NaN) / 2 ** 20);
    const value = (name: string) =>
      megabytes(/^(\S+) (\S+)$/m.exec(text.split('\n').find((l) => l.startsWith(`${name} `)) ?? '')?.[2]);
    // Each V8 space's reserved size: the old generation's growth between full collections shows in `old`.
    const spaces = Object.fromEntries(
      [...text.matchAll(/^nodejs_heap_space_size_total_bytes\{space="(\w+)"\} (\S+)$/gm)].map(([, space, bytes]) => [
        `space_${space}_mb`,
        megabytes(bytes),
      ]),
    );
    return {
      heap_used_mb: value('nodejs_heap_size_used_bytes'),
      heap_total_mb: value('nodejs_heap_size_total_bytes'),
      external_mb: value('nodejs_external_memory_bytes'),
      ...spaces,
    };
  } catch {
    return {};
  }
}

async function main(): Promise<Record<string, unknown>> {
  const root = repoRoot();
  const run = randomBytes(2).toString('hex');
  const work = mkdtempSync(join(tmpdir(), 'bench-ingest-'));
  // BENCH_KEEP_DIR keeps the raw profiles and each service's output for a closer look.
  const keepDir = process.env.BENCH_KEEP_DIR;
  const profileDir = keepDir ?? join(work, 'profiles');
  mkdirSync(profileDir, { recursive: true });
  const keepOutput = (service: BenchProcess) =>
    keepDir && writeFileSync(join(keepDir, `${service.name}.log`), service.output());
  const cleanups: (() => Promise<unknown>)[] = [async () => rmSync(work, { recursive: true, force: true })];
  const services: BenchProcess[] = [];
  const dumpOutputs = () => {
    for (const s of services)
      process.stderr.write(`--- ${s.name} (pid ${s.pid}) output:\n${s.output().slice(-6000)}\n`);
  };
  const stopAll = async () => {
    await Promise.allSettled(services.splice(0).map((s) => s.stop(5_000)));
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  };
  process.once('SIGINT', () => void stopAll().finally(() => process.exit(130)));
  process.once('SIGTERM', () => void stopAll().finally(() => process.exit(143)));

  try {
    const machine = {
      cpus: cpus().length,
      model: cpus()[0]?.model,
      memory_gb: Math.round(totalmem() / 2 ** 30),
      node: process.version,
    };
    log(
      `machine ${JSON.stringify(machine)}; load average before start ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );

    // Engines: our own broker, a fresh Postgres database, a chDB directory for the writer (in-process,
    // or behind the stand-in with BENCH_CLICKHOUSE=server).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const kafkaScript = require(join(root, 'scripts', 'kafka.js')) as {
      startKafka(options: { port: number; dataDir: string }): Promise<Broker>;
      findFreePort(): Promise<number>;
    };
    const broker = await kafkaScript.startKafka({
      port: await kafkaScript.findFreePort(),
      dataDir: join(work, 'kafka', 'data'),
    });
    cleanups.push(() => broker.stop());
    const database = await createPostgresDatabase(POSTGRES_ADMIN, `bench_${run}_${randomBytes(3).toString('hex')}`);
    cleanups.push(() => database.dispose());

    const engine = await startClickHouseEngine(CLICKHOUSE, 'clickhouse', join(work, 'clickhouse'));
    const stopEngine = async () => {
      const exit = await engine.process?.stop(10_000);
      if (engine.process && keepDir) writeFileSync(join(keepDir, 'clickhouse.log'), engine.process.output());
      return exit;
    };
    cleanups.push(stopEngine);
    log(
      `ClickHouse: ${CLICKHOUSE === 'server' ? `stand-in (pid ${engine.process!.pid}) at ${engine.url}` : 'chDB in the writers'}`,
    );
    const env: Record<string, string> = {
      HOST: '127.0.0.1',
      DATA_DIR: join(work, 'data'),
      CLICKHOUSE_URL: engine.url,
      DATABASE_URL: database.url,
      KAFKA_BROKERS: broker.brokers,
      KAFKA_TOPIC_PREFIX: `bench${run}.`,
      KAFKA_EVENTS_PARTITIONS: String(DEFAULT_PARTITIONS),
      LOG_LEVEL: 'warn',
      // The benchmark measures the pipeline, not the per-project rate limit.
      INGEST_LIMIT_EVENTS_PER_MINUTE: '1000000000',
      // BENCH_APP_<NAME>=value passes <NAME>=value to the gateway and writer (e.g. WRITER_MAX_BATCH_ROWS).
      ...variablesAfterPrefix('BENCH_APP_'),
    };
    const config = loadConfig(env);
    const partitions = config.kafka!.eventsPartitions;
    const project = await createBenchProject(config);
    const kafka = new Kafka({ clientId: 'bench', brokers: [broker.brokers], logLevel: logLevel.NOTHING });
    await ensureTopics(kafka, topicSpecs(config.kafka!));
    const admin = kafka.admin();
    await admin.connect();
    cleanups.push(() => admin.disconnect());

    const nodeFlags = (name: string) =>
      PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}.cpuprofile`] : [];
    const [writerPort, gatewayPort] = [await freePort(), await freePort()];
    // The writer's Node flags as deploy/docker/entrypoint.sh gives them, unless BENCH_WRITER_NODE_FLAGS says otherwise.
    const writerFlags = nodeFlagsFrom(
      process.env.BENCH_WRITER_NODE_FLAGS,
      '--max-semi-space-size=4 --heap-growing-percent=50',
    );
    const writer = spawnScript(
      'writer',
      join(root, 'dist/apps/writer/src/main.js'),
      { ...env, PORT: String(writerPort) },
      [...writerFlags, ...nodeFlags('writer')],
    );
    services.push(writer);
    await waitReady(writer, `http://127.0.0.1:${writerPort}`);
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    // The gateway's Node flags as deploy/docker/entrypoint.sh gives them, unless BENCH_GATEWAY_NODE_FLAGS says otherwise.
    const gatewayFlags = nodeFlagsFrom(process.env.BENCH_GATEWAY_NODE_FLAGS, GATEWAY_NODE_FLAGS);
    // Its environment as the entrypoint gives it, then BENCH_GATEWAY_ENV_<NAME>=value: a variable of the
    // gateway's process alone (MALLOC_ARENA_MAX, LD_PRELOAD, …), which wins.
    const gatewayEnv = { ...GATEWAY_ENV, ...variablesAfterPrefix('BENCH_GATEWAY_ENV_') };
    const gateway = spawnScript(
      'gateway',
      join(root, 'dist/apps/ingest/src/main.js'),
      { ...env, ...gatewayEnv, PORT: String(gatewayPort) },
      [...gatewayFlags, ...nodeFlags('gateway')],
    );
    services.push(gateway);
    await waitReady(gateway, gatewayUrl);

    const templates = buildTemplates(8, USERS, Date.now());
    const load = new LoadGenerator(gatewayUrl, project.authorization, templates, run);
    const watch = new GroupWatch(admin, topicName(config.kafka!, 'events'), groupId(config.kafka!, 'eventsWriter'));
    const bytesPerEvent = Math.round(templates[0].bytes / EVENTS_PER_BATCH);
    // The stand-in's process in the CPU figures (server mode); nothing with chDB in the writers.
    const standInPid = (clickhouse: ClickHouseEngine): Record<string, number> =>
      clickhouse.process ? { [ENGINE]: clickhouse.process.pid } : {};
    const ours = () => ({ broker: broker.pid, gateway: gateway.pid, writer: writer.pid, ...standInPid(engine) });
    const idleOf = (pid: number) => {
      const resident = residentOf(pid);
      return {
        rss_mb: mb(resident?.rssMb),
        anon_mb: mb(resident?.anonMb),
        chdb_library_mb: mb(resident?.chdbLibraryMb),
      };
    };
    const idle: Record<string, ReturnType<typeof idleOf>> = {
      gateway: idleOf(gateway.pid),
      writer: idleOf(writer.pid),
      ...(engine.process ? { engine: idleOf(engine.process.pid) } : {}),
    };
    const peak = { gateway: 0, writer: 0, engine: 0 };
    // Where the memory is at its peak: anonymous and file-backed (of it, chDB's library), V8 heap,
    // Buffers (external); the rest of the anonymous memory is native (malloc: chDB, request buffers).
    const heapAtPeak: Record<string, Record<string, number>> = {};
    const sampled: [keyof typeof peak, BenchProcess, number | undefined][] = [
      ['gateway', gateway, gatewayPort],
      ['writer', writer, writerPort],
    ];
    // The stand-in has no /metrics: its breakdown is anonymous vs mapped (libchdb) memory only.
    if (engine.process) sampled.push(['engine', engine.process, undefined]);
    const sampler = setInterval(() => {
      for (const [name, service, port] of sampled) {
        const rss = memoryOf(service.pid)?.rssMb ?? 0;
        if (rss <= peak[name]) continue;
        peak[name] = rss;
        const resident = residentOf(service.pid);
        const mapped = resident && {
          anon_mb: mb(resident.anonMb),
          file_mb: mb(resident.fileMb),
          chdb_library_mb: mb(resident.chdbLibraryMb),
        };
        heapAtPeak[name] = { rss_mb: mb(rss), ...mapped };
        if (port !== undefined)
          void heapBreakdown(port).then(
            (breakdown) => (heapAtPeak[name] = { rss_mb: mb(rss), ...mapped, ...breakdown }),
          );
      }
    }, 200);
    cleanups.push(async () => clearInterval(sampler));

    // Idle cost (no traffic) over 3 s: kafkajs's 1 ms timer loop per connection shows here.
    // The broker's too: every consumer's empty fetches and heartbeats cost it CPU whatever the traffic.
    const restingCores = async () => {
      const meter = new CpuMeter(ours).start();
      await sleep(3_000);
      const { cores } = meter.report(1);
      return {
        broker: cores.broker,
        gateway: cores.gateway,
        writer: cores.writer,
        ...(engine.process ? { [ENGINE]: cores[ENGINE] } : {}),
      };
    };
    const idleCores = await restingCores();
    log(`idle: cores used with no traffic ${JSON.stringify(idleCores)}`);

    // The bare pipeline runs beside ours from here on, so that the two can take turns.
    const bare = await startBarePipeline(
      {
        root,
        run,
        work,
        kafka,
        admin,
        brokers: broker.brokers,
        partitions,
        projectId: project.id,
        templates,
        clients: CLIENTS,
        split: BARE_SPLIT,
        nodeFlags: nodeFlags('bare-writer'),
      },
      ENGINE,
    );
    services.push(bare.writer);
    cleanups.push(() => bare.stop());
    const bareProcesses = () => ({ broker: broker.pid, ...bare.pids() });

    // Warm-up: connections, JIT, the writer's group membership; then everything written. The bare
    // pipeline's warm-up is shorter: the broker's JIT is warm by then.
    log(
      `warm-up ${WARMUP_SECONDS} s, ${CLIENTS} clients, ${EVENTS_PER_BATCH}-event batches of ≈${bytesPerEvent} bytes/event`,
    );
    await load.closedLoop(CLIENTS, WARMUP_SECONDS);
    await watch.drained(60_000);
    await bare.produce(Math.min(WARMUP_SECONDS, BARE_WARMUP_SECONDS));
    await bare.watch.drained(60_000);
    await quiet();
    const warmIdleCores = await restingCores();
    log(`idle after the warm-up: cores used with no traffic ${JSON.stringify(warmIdleCores)}`);

    // 1. Saturation, in rounds: ours, then the bare pipeline, each in a closed loop until its writer
    //    has committed everything acknowledged, each starting once the machine is quiet again (the
    //    other's merges done). The ratio is the median of the rounds' ratios: a burst of other load
    //    hits one round, not the whole comparison.
    const freshnessUnderSaturation = new FreshnessProbe(
      watch,
      gatewayUrl,
      project.authorization,
      project.id,
      partitions,
      run,
    );
    const saturationCpu = new CpuMeter(ours);
    const bareCpu = new CpuMeter(bareProcesses);
    const loads: LoadResult[] = [];
    const rounds: SaturationRound[] = [];
    let bareEvents = 0;
    const loadBefore = loadavg()[0];
    // The events topic's bytes on the broker's disk over the saturation rounds, per event acknowledged.
    const topicBytes = () => topicLogBytes(join(work, 'kafka', 'data'), topicName(config.kafka!, 'events'));
    const topicBytesBefore = topicBytes();
    for (let turn = 1; turn <= ROUNDS; turn++) {
      const oursRound = await saturate(
        saturationCpu,
        async () => {
          freshnessUnderSaturation.start(500, 50);
          const saturated = await load.closedLoop(CLIENTS, SATURATION_SECONDS);
          loads.push(saturated);
          return saturated.events;
        },
        // Markers stop with the load (they would keep the lag above zero), then both are waited for.
        async () => (await Promise.all([watch.drained(120_000), freshnessUnderSaturation.stop()]))[0],
      );
      const bareRound = await saturate(
        bareCpu,
        () => bare.produce(BARE_SECONDS),
        () => bare.watch.drained(120_000),
      );
      bareEvents += bareRound.events;
      rounds.push({
        events_per_s: Math.round(oursRound.eventsPerSecond),
        bare_events_per_s: Math.round(bareRound.eventsPerSecond),
        ratio: round(oursRound.eventsPerSecond / bareRound.eventsPerSecond, 2),
        written_after_last_ack_ms: oursRound.writtenAfterLastAckMs,
        bare_written_after_last_ack_ms: bareRound.writtenAfterLastAckMs,
        waited_for_quiet_ms: [oursRound.waitedForQuietMs, bareRound.waitedForQuietMs],
      });
      log(`saturation round ${turn} of ${ROUNDS}: ${JSON.stringify(rounds[rounds.length - 1])}`);
    }
    const saturated = mergeLoads(loads);
    const brokerBytesPerEvent = round((topicBytes() - topicBytesBefore) / saturated.events, 1);
    const saturationReport = saturationCpu.report(saturated.events);
    const bareCores = bareCpu.report(bareEvents);
    const eventsPerSecond = percentile(
      rounds.map((r) => r.events_per_s),
      50,
    );
    const bareEventsPerSecond = percentile(
      rounds.map((r) => r.bare_events_per_s),
      50,
    );
    const ratio = percentile(
      rounds.map((r) => r.ratio),
      50,
    );
    log(
      `saturation (${ROUNDS} rounds of ${SATURATION_SECONDS} s): ${JSON.stringify(describeLoad(saturated))}; end to end ${eventsPerSecond} events/s (median); ` +
        `freshness p50/p99 ${percentile(freshnessUnderSaturation.samples, 50)}/${percentile(freshnessUnderSaturation.samples, 99)} ms; ` +
        `cpu ${JSON.stringify(saturationReport)}; load average ${loadBefore.toFixed(2)} → ${loadavg()[0].toFixed(2)}`,
    );
    log(
      `bare pipeline (${ROUNDS} rounds of ${BARE_SECONDS} s): ${bareEvents} events (≈${bare.rowBytes} bytes/row), end to end ${bareEventsPerSecond} events/s (median); ` +
        `ratio ${ratio} (median of ${rounds.map((r) => r.ratio).join(', ')}); cpu ${JSON.stringify(bareCores)}`,
    );

    // 2. Paced: a fixed offered rate below saturation, for latency and freshness without queueing.
    await quiet();
    const pacedRate = Math.round(Math.min(100_000, eventsPerSecond * 0.7) / 1000) * 1000;
    const freshness = new FreshnessProbe(watch, gatewayUrl, project.authorization, project.id, partitions, run + 'p');
    const pacedMeter = new CpuMeter(ours).start();
    freshness.start(200, 20);
    const paced = await load.paced(pacedRate, PACED_SECONDS);
    await Promise.all([watch.drained(60_000), freshness.stop()]);
    const pacedCpu = pacedMeter.report(paced.events);
    log(
      `paced at ${pacedRate} events/s offered: ${JSON.stringify(describeLoad(paced))}; freshness over ${freshness.samples.length} markers ` +
        `p50/p99/max ${percentile(freshness.samples, 50)}/${percentile(freshness.samples, 99)}/${Math.max(...freshness.samples)} ms; cpu ${JSON.stringify(pacedCpu)}`,
    );

    const gatewayMemory = memoryOf(gateway.pid);
    const writerMemory = memoryOf(writer.pid);
    const engineMemory = engine.process && memoryOf(engine.process.pid);
    const bareMemory = bare.memory();
    clearInterval(sampler);
    const [gatewayExit, writerExit] = [await gateway.stop(), await writer.stop()];
    services.splice(0).forEach(keepOutput);
    // After the writer, which drains into it.
    const engineExit = await stopEngine();
    if (gatewayExit !== 0 || writerExit !== 0 || (engineExit ?? 0) !== 0)
      log(
        `warning: gateway exited ${gatewayExit}, writer exited ${writerExit}, ClickHouse stand-in exited ${engineExit}`,
      );
    await bare.stop();
    log(`memory at idle after start (MB): ${JSON.stringify(idle)}; at the peaks: ${JSON.stringify(heapAtPeak)}`);
    const enginePeakRss = engine.process ? mb(Math.max(peak.engine, engineMemory?.peakRssMb ?? 0)) : undefined;
    log(
      `memory (MB): gateway peak RSS ${mb(Math.max(peak.gateway, gatewayMemory?.peakRssMb ?? 0))}, writer peak RSS ${mb(Math.max(peak.writer, writerMemory?.peakRssMb ?? 0))}` +
        (engine.process ? `, ${ENGINE} peak RSS ${enginePeakRss}` : '') +
        `; bare writer peak RSS ${mb(bareMemory.writerPeakRssMb)}` +
        (bareMemory.enginePeakRssMb !== undefined ? `, its ${ENGINE} peak RSS ${mb(bareMemory.enginePeakRssMb)}` : ''),
    );

    const profiles: ProfileSummary[] = PROFILE ? profilesIn(profileDir).map(summarizeProfile) : [];
    for (const profile of profiles) log(`cpu profile ${JSON.stringify(profile)}`);

    return {
      date: new Date().toISOString(),
      machine,
      events_per_s: Math.round(eventsPerSecond),
      bare_events_per_s: Math.round(bareEventsPerSecond),
      ratio,
      rounds,
      p50_ms: round(percentile(paced.latencies, 50)),
      p99_ms: round(percentile(paced.latencies, 99)),
      paced_offered_events_per_s: pacedRate,
      saturated_p50_ms: round(percentile(saturated.latencies, 50)),
      saturated_p99_ms: round(percentile(saturated.latencies, 99)),
      ingest_only_events_per_s: Math.round(saturated.events / saturated.seconds),
      freshness_p50_ms: percentile(freshness.samples, 50),
      freshness_p99_ms: percentile(freshness.samples, 99),
      freshness_samples: freshness.samples.length,
      saturated_freshness_p99_ms: percentile(freshnessUnderSaturation.samples, 99),
      memory_idle_mb: idle,
      memory_breakdown_at_peak_mb: heapAtPeak,
      idle_cores: idleCores,
      idle_cores_after_warmup: warmIdleCores,
      gateway_rss_mb: mb(Math.max(peak.gateway, gatewayMemory?.peakRssMb ?? 0)),
      writer_rss_mb: mb(Math.max(peak.writer, writerMemory?.peakRssMb ?? 0)),
      // chdb: the engine is inside the writer (its RSS above); server: the stand-in's own process.
      clickhouse: CLICKHOUSE,
      engine_peak_rss_mb: enginePeakRss ?? null,
      bare_writer_rss_mb: mb(bareMemory.writerPeakRssMb),
      bare_engine_peak_rss_mb: bareMemory.enginePeakRssMb !== undefined ? mb(bareMemory.enginePeakRssMb) : null,
      bytes_per_event_sent: bytesPerEvent,
      // On the broker's disk (one replica), as the gateway's producer wrote the batches (KAFKA_COMPRESSION).
      broker_bytes_per_event: brokerBytesPerEvent,
      kafka_compression: config.kafka!.compression,
      bytes_per_row_stored: bare.rowBytes,
      clients: CLIENTS,
      partitions,
      failures: saturated.failures + paced.failures,
      projected_events_per_s_alone: saturationReport.projected_events_per_s_alone,
      // The issue's sum: gateway + writer + broker at saturation (the load generator is not ours), and
      // with BENCH_CLICKHOUSE=server the stand-in too: it does the engine's work the writer does in-process with chDB.
      cpu_us_per_event_total: round(
        ['gateway', 'writer', 'broker', ENGINE].reduce(
          (sum, name) => sum + (saturationReport.cpu_us_per_event[name] ?? 0),
          0,
        ),
        1,
      ),
      cpu_us_per_event_writer: saturationReport.cpu_us_per_event.writer,
      cpu_us_per_event_engine: saturationReport.cpu_us_per_event[ENGINE] ?? null,
      projected_bare_events_per_s_alone: bareCores.projected_events_per_s_alone,
      other_processes_cores: saturationReport.cores['other processes'],
      cpu_saturation: saturationReport,
      cpu_bare: bareCores,
      profiled: PROFILE,
      app_settings: Object.fromEntries(
        Object.entries(env).filter(([name]) => process.env[`BENCH_APP_${name}`] !== undefined),
      ),
      bare_messages: BARE_SPLIT ? 'one per batch and partition (as the gateway)' : 'one per 2000-event batch',
    };
  } catch (error) {
    dumpOutputs();
    throw error;
  } finally {
    await stopAll();
  }
}

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
