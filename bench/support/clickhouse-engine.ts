import { join } from 'node:path';
import { BenchProcess, poll, repoRoot, spawnScript } from './processes';

/**
 * BENCH_CLICKHOUSE: `chdb` (default; the services open the engine in-process, as the figures before
 * 2026-11-25 were taken) or `server` (the services talk HTTP, as in production, to a ClickHouse
 * stand-in in a process of its own: bench/support/clickhouse-server.ts).
 */
export type ClickHouseMode = 'chdb' | 'server';

export function clickhouseMode(): ClickHouseMode {
  const mode = process.env.BENCH_CLICKHOUSE ?? 'chdb';
  if (mode !== 'chdb' && mode !== 'server') throw new Error(`BENCH_CLICKHOUSE must be chdb or server, not ${mode}`);
  return mode;
}

export interface ClickHouseEngine {
  /** CLICKHOUSE_URL for the services. */
  url: string;
  /** The stand-in's process (server mode only). */
  process?: BenchProcess;
}

/**
 * BENCH_ENGINE_NICE (server mode; default 0): the stand-in's threads at this Linux nice value, 19 the
 * lowest priority. On one machine the engine's inserts and merges take the cores the gateway and the
 * broker answer on; at 19 they take only what those leave, nearly as if the engine had machines of its
 * own, as in production. A diagnosis of latency, not a product setting
 * (docs/benchmarks/2026-11-28-gateway-malloc-threshold.md).
 */
function engineNice(): number {
  const nice = Number(process.env.BENCH_ENGINE_NICE ?? 0);
  if (!Number.isInteger(nice) || nice < 0 || nice > 19)
    throw new Error(`BENCH_ENGINE_NICE must be an integer from 0 to 19, not ${process.env.BENCH_ENGINE_NICE}`);
  return nice;
}

/**
 * The engine on `directory`: a chdb: URL, or a stand-in process started on it and its http URL (on
 * `port` when given: a restarted stand-in keeps the address the services were configured with).
 */
export async function startClickHouseEngine(
  mode: ClickHouseMode,
  name: string,
  directory: string,
  options: { nodeFlags?: string[]; port?: number } = {},
): Promise<ClickHouseEngine> {
  if (mode === 'chdb') return { url: `chdb:${directory}` };
  const standIn = spawnScript(
    name,
    join(repoRoot(), 'dist/bench/support/clickhouse-server.js'),
    {
      CLICKHOUSE_STANDIN_DIR: directory,
      CLICKHOUSE_STANDIN_NICE: String(engineNice()),
      CLICKHOUSE_STANDIN_PORT: String(options.port ?? 0),
    },
    options.nodeFlags,
  );
  try {
    const port = await poll(() => {
      if (standIn.child.exitCode !== null) throw new Error(`${name} exited:\n${standIn.output()}`);
      const listening = /clickhouse stand-in listening on (\d+)/.exec(standIn.output());
      if (!listening) throw new Error(`${name} not listening`);
      return Number(listening[1]);
    }, 60_000);
    return { url: `http://127.0.0.1:${port}/default`, process: standIn };
  } catch (error) {
    await standIn.stop(1_000);
    throw error;
  }
}
