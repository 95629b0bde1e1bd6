/**
 * `npm run bench:backup`: a backup of the standalone holding BACKUP_BENCH_EVENTS (default 1,000,000) events, taken
 * over HTTP while the server is otherwise idle, then restored by the CLI into an empty directory. Baseline in the same
 * run: `tar` of the stopped server's data directory (reading the same data as files, the floor of any copy). The
 * server's RSS is sampled from /proc during the backup (its rise over the idle server is what the backup holds), the
 * restore's peak RSS likewise. Last line: one JSON object of the figures.
 */
import 'reflect-metadata';
import { ClickHouseDdl, ClickHouseMigrator, createClickHouseClient } from '@analytics/clickhouse';
import { CLICKHOUSE_MIGRATIONS } from '@analytics/runtime';
import { spawnService, temporaryDirectory } from '@analytics/testing';
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { cpuSecondsOf, memoryOf, poll, repoRoot } from './support/processes';

const EVENTS = Number(process.env.BACKUP_BENCH_EVENTS ?? 1_000_000);
const PORT = 18_600 + Math.floor(Math.random() * 1000);
const OWNER = 'bench-backup-owner';
const OWNER_SECRET = 'bench-backup-owner-secret-01';

/** Events of 12 properties each, generated inside ClickHouse over the last 30 days. */
async function generate(dir: string): Promise<void> {
  const client = createClickHouseClient(`chdb:${dir}`);
  try {
    await new ClickHouseMigrator(client, new ClickHouseDdl()).migrate(CLICKHOUSE_MIGRATIONS);
    await client.command({
      query: `INSERT INTO events SELECT 1, concat('Event ', toString(number % 10)),
          now64(3) - toIntervalSecond(number % (30 * 86400)), concat('user-', toString(number % 50000)),
          toString(generateUUIDv4()),
          concat('{"plan":"pro","n":', toString(number), ',"price":', toString(number % 997 / 10),
            ',"tags":["a","', toString(number % 50), '"],"$os":"Linux","$browser":"Firefox","ok":true',
            ',"page":"https://example.com/', toString(number % 700), '","k1":1,"k2":"two","k3":3.5,"k4":null}'),
          now64(3)
        FROM numbers(${EVENTS})`,
    });
  } finally {
    await client.close();
  }
}

/** Runs `work` while sampling `pid`'s resident memory every 100 ms; the highest sample in MB. */
async function peakRssDuring<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peakMb = 0;
  const timer = setInterval(() => (peakMb = Math.max(peakMb, memoryOf(pid)?.rssMb ?? 0)), 100);
  try {
    return { result: await work(), peakMb };
  } finally {
    clearInterval(timer);
  }
}

const seconds = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e9;

async function main(): Promise<void> {
  const root = temporaryDirectory('bench-backup');
  const dataDir = join(root.path, 'data');
  const tar = join(root.path, 'backup.tar');
  try {
    await generate(join(dataDir, 'clickhouse'));
    const server = spawnService('standalone', {
      DATA_DIR: dataDir,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      BOOTSTRAP_SERVICE_ACCOUNT_USERNAME: OWNER,
      BOOTSTRAP_SERVICE_ACCOUNT_SECRET: OWNER_SECRET,
    });
    let backup: { seconds: number; bytes: number; cpu: number; idleMb: number; peakMb: number };
    try {
      await poll(async () => {
        if ((await fetch(`http://127.0.0.1:${PORT}/readyz`)).status !== 200) throw new Error('not ready');
      }, 180_000);
      const pid = server.child.pid!;
      const idleMb = memoryOf(pid)!.rssMb;
      const cpu = cpuSecondsOf(pid);
      const started = process.hrtime.bigint();
      const { peakMb } = await peakRssDuring(pid, async () => {
        const response = await fetch(`http://127.0.0.1:${PORT}/api/app/backup`, {
          method: 'POST',
          headers: { Authorization: `Basic ${Buffer.from(`${OWNER}:${OWNER_SECRET}`).toString('base64')}` },
        });
        if (response.status !== 200) throw new Error(`backup answered ${response.status}: ${await response.text()}`);
        await pipeline(Readable.fromWeb(response.body as never), createWriteStream(tar));
      });
      backup = { seconds: seconds(started), bytes: statSync(tar).size, cpu: cpuSecondsOf(pid) - cpu, idleMb, peakMb };
    } finally {
      await server.stop(60_000);
    }
    const bareStarted = process.hrtime.bigint();
    execFileSync('tar', ['cf', join(root.path, 'bare.tar'), '-C', dataDir, '.']);
    const bare = { seconds: seconds(bareStarted), bytes: statSync(join(root.path, 'bare.tar')).size };

    const cli = join(repoRoot(), 'dist/apps/admin/src/main.js');
    const restoreStarted = process.hrtime.bigint();
    const restore = spawn(process.execPath, [cli, 'restore', tar], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: join(root.path, 'restored') },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exited = new Promise<number | null>((done) => restore.once('exit', done));
    const { result: code, peakMb: restorePeakMb } = await peakRssDuring(restore.pid!, () => exited);
    if (code !== 0) throw new Error(`restore failed with ${code}`);
    const restoreSeconds = seconds(restoreStarted);

    const load = loadavg().map((n) => n.toFixed(2));
    const figures = {
      events: EVENTS,
      backup_seconds: +backup.seconds.toFixed(2),
      backup_mb: +(backup.bytes / 1e6).toFixed(1),
      backup_mb_per_s: +(backup.bytes / 1e6 / backup.seconds).toFixed(1),
      backup_server_cpu_seconds: +backup.cpu.toFixed(2),
      server_idle_rss_mb: +backup.idleMb.toFixed(0),
      server_peak_rss_mb: +backup.peakMb.toFixed(0),
      bare_tar_seconds: +bare.seconds.toFixed(2),
      bare_tar_mb: +(bare.bytes / 1e6).toFixed(1),
      ratio_to_bare: +(bare.seconds / backup.seconds).toFixed(2),
      restore_seconds: +restoreSeconds.toFixed(2),
      restore_peak_rss_mb: +restorePeakMb.toFixed(0),
      load_average: load.join(' '),
    };
    process.stdout.write(
      [
        `backup of ${EVENTS} events: ${figures.backup_seconds} s, ${figures.backup_mb} MB (${figures.backup_mb_per_s} MB/s), server CPU ${figures.backup_server_cpu_seconds} s`,
        `server RSS idle ${figures.server_idle_rss_mb} MB, peak during the backup ${figures.server_peak_rss_mb} MB`,
        `bare tar of the stopped data directory: ${figures.bare_tar_seconds} s, ${figures.bare_tar_mb} MB (bare/backup speed ${figures.ratio_to_bare})`,
        `restore by the CLI: ${figures.restore_seconds} s, peak RSS ${figures.restore_peak_rss_mb} MB`,
        `load average ${load.join(' ')}`,
        JSON.stringify(figures),
      ].join('\n') + '\n',
    );
  } finally {
    root.remove();
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack}\n`);
    process.exit(1);
  },
);
