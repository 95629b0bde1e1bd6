import { ROLE_MATRIX } from '@analytics/auth';
import fc from 'fast-check';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { probeConnectionsAfterRefusal } from './connection-probe';
import { corpusRequests } from './corpus';
import { FuzzClient } from './fuzz-client';
import { attachLogs, FiveXxCase, fiveXxCase, FuzzResult, printFigures, reportCases, RouteStats } from './fuzz-report';
import { createSandbox, ensureReports, sandboxUsable, startTarget, Target } from './fuzz-target';
import { GoodStep, goodStep, GoodTraffic, readBack } from './good-traffic';
import { FuzzTargets, hostileRequest, RequestPlan } from './hostile-requests';

export interface FuzzOptions {
  requests: number;
  seed: number;
  /** Without brokers the standalone runs embedded (no bus). */
  kafkaBrokers?: string;
  concurrency?: number;
  /** The run stops sending after this long (counted from the first request, not the start), whatever the count. */
  timeLimitMs?: number;
  print?: (line: string) => void;
}

type Item = { hostile: RequestPlan } | { good: GoodStep };

const CHUNK = 250;
const REPORT_DIR = resolve(__dirname, '../../tmp/fuzz');
const today = () => new Date().toISOString().slice(0, 10);

/**
 * One fuzz run against a freshly started standalone: `requests` generated requests (about one in
 * eight good, the rest hostile) from `seed`, sent by `concurrency` clients, with the process
 * watched throughout; then every acknowledged good event is looked up in the export.
 */
export async function runFuzz(options: FuzzOptions): Promise<FuzzResult> {
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const started = Date.now();
  const target = await startTarget(options.kafkaBrokers);
  try {
    return await fuzzTarget(target, options, print, started);
  } finally {
    await target.stop();
  }
}

async function fuzzTarget(
  target: Target,
  options: FuzzOptions,
  print: (line: string) => void,
  started: number,
): Promise<FuzzResult> {
  const concurrency = options.concurrency ?? 8;
  const mode = target.mode;
  print(
    `fuzz[${mode}] seed=${options.seed} requests=${options.requests} concurrency=${concurrency}: standalone pid ${target.pid} on ${target.baseUrl}`,
  );
  const client = new FuzzClient(target.port, concurrency, 90_000);
  const firstDay = today();
  const result = newResult(mode, options.seed);
  // Embedded runs try the identity rules of Original ID Merge, Kafka runs Simplified's (the default).
  if (mode === 'embedded') result.identity_merge = await target.setIdentityMerge('original');
  // Alongside the traffic: it mostly waits. A stalled connection also holds up the server's graceful
  // stop (its exit code below); FUZZ_CONNECTION_PROBE=0 leaves the probe out to see the stop without it.
  const probing =
    process.env.FUZZ_CONNECTION_PROBE === '0'
      ? Promise.resolve([])
      : probeConnectionsAfterRefusal(target.port, `Basic ${Buffer.from(`${target.good.secret}:`).toString('base64')}`);
  const sending = Date.now();
  const good = new GoodTraffic(
    target.good,
    `fz${(options.seed >>> 0).toString(36)}${Date.now().toString(36).slice(-4)}`,
  );
  const targets: FuzzTargets = {
    ingest: [{ token: target.good.token, secret: target.good.secret }],
    sandbox: await createSandbox(target),
  };
  targets.ingest.push({ token: targets.sandbox.token });
  const cases: FiveXxCase[] = [];
  const bodies = new Map<number, Buffer>();
  let sent = 0;
  let chunk = 0;
  // The fixed corpus first, then generated traffic.
  let queue: Item[] = corpusRequests(targets).map((hostile) => ({ hostile }));
  let refill: Promise<void> | undefined;
  let crashed = false;

  const items = (): fc.Arbitrary<Item> =>
    fc.oneof(
      { weight: 88, arbitrary: hostileRequest(targets).map((hostile) => ({ hostile })) },
      { weight: 12, arbitrary: goodStep.map((step) => ({ good: step })) },
    );
  const nextItem = async (): Promise<Item | undefined> => {
    while (queue.length === 0) {
      refill ??= (async () => {
        // Hostile requests may delete or expire the sandbox's owner; a new sandbox keeps them reaching the handlers.
        if (chunk % 4 === 3 && target.alive()) {
          if (!(await sandboxUsable(target, targets.sandbox)))
            targets.sandbox = await createSandbox(target).catch(() => targets.sandbox);
          else await ensureReports(target, targets.sandbox);
        }
        targets.ingest[1] = { token: targets.sandbox.token };
        queue = fc.sample(items(), { seed: (options.seed + chunk++) | 0, numRuns: CHUNK });
      })().finally(() => (refill = undefined));
      await refill;
    }
    return queue.shift();
  };
  const stopReason = () =>
    crashed || !target.alive()
      ? 'crash'
      : sent >= options.requests
        ? 'count'
        : Date.now() - sending > (options.timeLimitMs ?? Infinity)
          ? 'time limit'
          : undefined;

  const times = new RouteStats();
  const record = (plan: RequestPlan, answer: Awaited<ReturnType<FuzzClient['send']>>) => {
    times.add(plan.route, answer.ms, answer.status);
    if (answer.ms > 10_000 && result.slow_requests.length < 20) {
      const { route, category, method, path, headers } = fiveXxCase(0, plan, answer);
      result.slow_requests.push({
        route,
        category,
        method,
        path: path.slice(0, 300),
        headers,
        body_bytes: (plan.body ?? plan.raw)?.length ?? 0,
        status: answer.status,
        ms: answer.ms,
        previous_on_connection: answer.previousOnConnection,
      });
    }
    result.by_status[answer.status] = (result.by_status[answer.status] ?? 0) + 1;
    if (answer.status === 0) {
      result.no_answer++;
      if (answer.error === 'timeout') result.timeouts++;
      if (result.no_answer_examples.length < 10)
        result.no_answer_examples.push({
          route: plan.route,
          category: plan.category,
          request: `${plan.method} ${plan.path.slice(0, 160)}`,
          error: answer.error,
        });
    }
    if (answer.status >= 500) {
      result.five_xx++;
      result.five_xx_by_route[plan.route] = (result.five_xx_by_route[plan.route] ?? 0) + 1;
      const c = fiveXxCase(result.requests, plan, answer);
      cases.push(c);
      if (bodies.size < 50 && (plan.body ?? plan.raw)) bodies.set(c.n, (plan.body ?? plan.raw)!);
    }
  };

  // What is on the wire: if the process dies, the request that killed it is among these.
  const inFlight = new Set<RequestPlan>();
  const send = async (plan: RequestPlan) => {
    inFlight.add(plan);
    const answer = await client.send(plan);
    inFlight.delete(plan);
    result.requests++;
    record(plan, answer);
    return answer;
  };
  target.service.child.once('exit', () => {
    for (const plan of inFlight)
      print(
        `  in flight when the process ended: ${JSON.stringify(fiveXxCase(0, plan, { status: 0, body: '', ms: 0 })).slice(0, 2_000)}`,
      );
  });
  const worker = async () => {
    while (!stopReason()) {
      sent++;
      const item = await nextItem();
      if (!item) break;
      if ('hostile' in item) await send(item.hostile);
      else {
        const request = good.next(item.good, today());
        const answer = await send(request.plan);
        good.answered(request, answer.status, answer.body);
      }
    }
  };

  // The process must stay the one we started, and healthy, the whole run.
  let watching = true;
  const watch = (async () => {
    while (watching) {
      if (!target.alive()) {
        crashed = true;
        result.crashes = 1;
        break;
      }
      const asked = Date.now();
      if (!(await target.healthy())) result.health_failures++;
      result.health_max_ms = Math.max(result.health_max_ms, Date.now() - asked);
      await new Promise((done) => setTimeout(done, 2_000));
    }
  })();
  const progress = setInterval(
    () => print(`  … ${result.requests} requests, ${result.five_xx} ≥ 500, ${good.acked.size} events acknowledged`),
    30_000,
  );
  await Promise.all(Array.from({ length: concurrency }, worker));
  clearInterval(progress);
  watching = false;
  await watch;
  result.stopped_by = stopReason() ?? 'count';
  result.keep_alive_stalls = (await probing)
    .filter((p) => p.stalled)
    .map((p) => `${p.request}: ${p.first}, then GET /healthz: ${p.next}`);
  const checking = Date.now();
  if (!target.alive()) result.crashes = 1;
  if (!result.crashes && !(await target.healthy())) result.health_failures++;
  client.close();

  // Every acknowledged event, exactly once: waited for (the bus delivers later), then counted.
  if (!result.crashes) {
    const stored = await readBack(target, good, firstDay, today(), mode === 'kafka' ? 180_000 : 30_000);
    Object.assign(result, {
      lost: stored.lost,
      duplicated: stored.duplicated,
      fused: stored.fused,
      stored_unacked: stored.unacked,
      export_status: stored.status,
      export_bad_lines: stored.badLines.length,
    });
    for (const line of stored.badLines) print(`  export line that is not JSON: ${line}`);
    if (stored.status >= 500) {
      result.five_xx++;
      cases.push(
        fiveXxCase(
          result.requests,
          {
            category: 'read-back',
            route: 'GET /api/2.0/export',
            method: 'GET',
            path: '/api/2.0/export (the whole run)',
            headers: {},
          },
          { status: stored.status, body: stored.body, ms: 0 },
        ),
      );
    }
  } else {
    print(
      `the standalone died (exit ${target.service.child.exitCode}, signal ${target.service.child.signalCode}): lost and duplicated not checked; its last output:\n${target.service.output().slice(-6_000)}`,
    );
  }
  result.slowest_routes = times.slowest();
  result.routes_unreached = times.unreached(
    ROLE_MATRIX.filter((r) => r.served !== false).map((r) => `${r.method} ${r.path}`),
  );
  mkdirSync(REPORT_DIR, { recursive: true });
  result.routes_file = join(REPORT_DIR, `${mode}-${options.seed}-routes.json`);
  times.write(result.routes_file);
  result.acked_events = good.acked.size;
  result.good_events_sent = good.sentEvents;
  result.good_refused = good.refused.length;
  for (const refusal of good.refused.slice(0, 5)) print(`  good request refused: ${JSON.stringify(refusal)}`);
  result.exit_code = await target.stop();
  if (result.exit_code !== 0 && !result.crashes)
    print(
      `the standalone exited with ${result.exit_code} on SIGTERM; the end of its output:\n${target.service.output().slice(-3_000)}`,
    );
  result.seconds = Math.round((Date.now() - started) / 1000);
  result.phases = {
    start: Math.round((sending - started) / 1000),
    send: Math.round((checking - sending) / 1000),
    check: Math.round((Date.now() - checking) / 1000),
  };
  attachLogs(cases, target.service.output());
  result.cases_file = reportCases(cases, bodies, REPORT_DIR, `${mode}-${options.seed}`, print);
  printFigures(result, print);
  return result;
}

function newResult(mode: FuzzResult['mode'], seed: number): FuzzResult {
  return {
    mode,
    seed,
    requests: 0,
    five_xx: 0,
    crashes: 0,
    lost: 0,
    duplicated: 0,
    fused: 0,
    identity_merge: 'simplified',
    acked_events: 0,
    good_events_sent: 0,
    stored_unacked: 0,
    good_refused: 0,
    health_failures: 0,
    health_max_ms: 0,
    no_answer: 0,
    timeouts: 0,
    export_status: 0,
    export_bad_lines: 0,
    exit_code: null,
    stopped_by: '',
    by_status: {},
    five_xx_by_route: {},
    slowest_routes: {},
    slow_requests: [],
    no_answer_examples: [],
    routes_unreached: [],
    keep_alive_stalls: [],
    seconds: 0,
    phases: { start: 0, send: 0, check: 0 },
  };
}
