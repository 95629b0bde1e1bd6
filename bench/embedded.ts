import { join } from 'node:path';
import { cpus } from 'node:os';
import { temporaryDirectory } from '@analytics/testing';
import { buildTemplates, EVENTS_PER_BATCH } from './support/event-bodies';
import { LoadGenerator, percentile, round } from './support/load';
import {
  cpuSecondsOf,
  freePort,
  machineCpuSeconds,
  memoryOf,
  nodeFlagsFrom,
  repoRoot,
  spawnScript,
  STANDALONE_NODE_FLAGS,
} from './support/processes';
import { waitReady } from './support/setup';

/**
 * `npm run bench:embedded`: what `npm start` sustains, one process with the engines in-process
 * (chDB, PGlite), no broker. BENCH_CLIENTS (default 8) independent clients each send 2000-event
 * `/import` batches (the bench:ingest events) in a closed loop for BENCH_SECONDS (20) after a 4 s
 * warm-up. An acknowledgement here means stored: the in-process sink answers after the insert.
 * Figures: events/s acknowledged, request latency, the process's CPU per event and peak RSS, and the
 * cores other processes took meanwhile (the machine is shared). BENCH_NODE_FLAGS replaces the Node
 * flags of the standalone (default: `npm start`'s). The last line is JSON.
 */
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
/** Node flags for the standalone: by default those `npm start` gives it (package.json); BENCH_NODE_FLAGS= (empty) for V8's defaults. */
const NODE_FLAGS = nodeFlagsFrom(process.env.BENCH_NODE_FLAGS, STANDALONE_NODE_FLAGS);
const OWNER = { username: 'bench-owner', secret: 'bench-owner-secret-0123456789abcdef' };
const PROJECT = { token: 'benchtoken0123456789abcdef', secret: 'bench-project-secret-0123456789abcdef' };

async function main(): Promise<void> {
  const directory = temporaryDirectory('bench-embedded');
  const port = await freePort();
  const standalone = spawnScript(
    'standalone',
    join(repoRoot(), 'dist/apps/standalone/src/main.js'),
    {
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DATA_DIR: join(directory.path, 'data'),
      BOOTSTRAP_SERVICE_ACCOUNT_USERNAME: OWNER.username,
      BOOTSTRAP_SERVICE_ACCOUNT_SECRET: OWNER.secret,
      BOOTSTRAP_PROJECT_TOKEN: PROJECT.token,
      BOOTSTRAP_PROJECT_SECRET: PROJECT.secret,
      INGEST_LIMIT_EVENTS_PER_MINUTE: '1000000000',
    },
    NODE_FLAGS,
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitReady(standalone, url);
    const load = new LoadGenerator(
      url,
      `Basic ${Buffer.from(`${PROJECT.secret}:`).toString('base64')}`,
      buildTemplates(8, 100_000, Date.now() - 3_600_000),
      'embd',
    );
    await load.closedLoop(CLIENTS, 4);
    const idleRss = memoryOf(standalone.pid)?.rssMb ?? NaN;

    let peakRss = 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, memoryOf(standalone.pid)?.rssMb ?? 0)), 200);
    const cpuBefore = cpuSecondsOf(standalone.pid);
    const selfBefore = process.cpuUsage();
    const machineBefore = machineCpuSeconds();
    const result = await load.closedLoop(CLIENTS, SECONDS);
    clearInterval(sampler);
    const cpu = cpuSecondsOf(standalone.pid) - cpuBefore;
    const self = process.cpuUsage(selfBefore);
    const selfSeconds = (self.user + self.system) / 1e6;
    const machine = machineCpuSeconds();
    const others = (machine.busy - machineBefore.busy - cpu - selfSeconds) / result.seconds;

    const figures = {
      embedded_events_per_s: Math.round(result.events / result.seconds),
      clients: CLIENTS,
      events_per_request: EVENTS_PER_BATCH,
      failed_requests: result.failures,
      p50_ms: round(percentile(result.latencies, 50)),
      p99_ms: round(percentile(result.latencies, 99)),
      cpu_us_per_event: round((cpu / result.events) * 1e6),
      load_generator_cpu_us_per_event: round((selfSeconds / result.events) * 1e6),
      cores_used: round(cpu / result.seconds, 2),
      projected_events_per_s_alone: Math.round(cpus().length / (cpu / result.events)),
      peak_rss_mb: Math.round(peakRss),
      rss_after_warmup_mb: Math.round(idleRss),
      other_processes_cores: round(Math.max(others, 0), 2),
      seconds: round(result.seconds),
      node_flags: NODE_FLAGS.join(' '),
    };
    console.log(
      `embedded standalone, ${CLIENTS} clients × ${EVENTS_PER_BATCH}-event /import for ${figures.seconds} s: ${figures.embedded_events_per_s} events/s (p50 ${figures.p50_ms} ms, p99 ${figures.p99_ms} ms, ${result.failures} failed)`,
    );
    console.log(
      `CPU ${figures.cpu_us_per_event} µs/event (${figures.cores_used} cores; load generator ${figures.load_generator_cpu_us_per_event} µs/event; other processes ${figures.other_processes_cores} cores); projected alone ${figures.projected_events_per_s_alone}/s; peak RSS ${figures.peak_rss_mb} MB`,
    );
    console.log(JSON.stringify(figures));
  } finally {
    await standalone.stop();
    directory.remove();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
