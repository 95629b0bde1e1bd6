import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Answer } from './fuzz-client';
import type { RequestPlan } from './hostile-requests';

/** One answer of 500 or more, with what is needed to find its cause. */
export interface FiveXxCase {
  n: number;
  category: string;
  route: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body_bytes: number;
  body_prefix: string;
  status: number;
  answer: string;
  request_id?: string;
  server_log: string[];
  body_file?: string;
}

/** The figures of one run; the last line of the output is this object. */
export interface FuzzResult {
  mode: 'embedded' | 'kafka';
  seed: number;
  requests: number;
  five_xx: number;
  crashes: number;
  lost: number;
  duplicated: number;
  /** Acknowledged good events the export shows under another person's distinct id (identity-links.ts). */
  fused: number;
  /** The identity mode of the good project: `original` embedded, `simplified` with Kafka. */
  identity_merge: string;
  acked_events: number;
  good_events_sent: number;
  stored_unacked: number;
  good_refused: number;
  health_failures: number;
  /** The slowest `GET /healthz` of the watcher (every 2 s): how long the heaviest hostile request made others wait. */
  health_max_ms: number;
  no_answer: number;
  timeouts: number;
  export_status: number;
  export_bad_lines: number;
  exit_code: number | null;
  stopped_by: string;
  by_status: Record<string, number>;
  five_xx_by_route: Record<string, number>;
  /** Where the time went: the routes with the most total answer time. */
  slowest_routes: Record<string, { n: number; avg_ms: number; max_ms: number }>;
  /** Answers that took more than 10 s (the first 20): a hostile request that holds a connection that long is worth a look. */
  slow_requests: {
    route: string;
    category: string;
    method: string;
    path: string;
    headers: Record<string, string>;
    body_bytes: number;
    status: number;
    ms: number;
    previous_on_connection?: string;
  }[];
  /** Requests that got no answer at all (the first 10), with why. */
  no_answer_examples: { route: string; category: string; request: string; error?: string }[];
  /** Served routes of the matrix whose handlers no request reached (see RouteStats.unreached). */
  routes_unreached: string[];
  routes_file?: string;
  /** Requests after which a keep-alive connection stalled (connection-probe.ts). */
  keep_alive_stalls: string[];
  seconds: number;
  /** Of which: starting the standalone, sending, and reading the events back. */
  phases: { start: number; send: number; check: number };
  cases_file?: string;
}

const clip = (text: string, n: number) => (text.length > n ? `${text.slice(0, n)}…(${text.length} chars)` : text);

export function fiveXxCase(n: number, plan: RequestPlan, answer: Answer): FiveXxCase {
  const body = plan.raw ?? plan.body;
  return {
    n,
    category: plan.category,
    route: plan.route,
    method: plan.method,
    path: clip(plan.path, 1_000),
    headers: Object.fromEntries(Object.entries(plan.headers).map(([k, v]) => [k, clip(v, 300)])),
    body_bytes: body?.length ?? 0,
    body_prefix: body ? body.subarray(0, 600).toString(plan.raw ? 'latin1' : 'utf8') : '',
    status: answer.status,
    answer: clip(answer.body, 2_000),
    request_id: answer.requestId,
    server_log: [],
  };
}

/**
 * Attaches the server's error log lines for each case's request id (pino lines carry `"req":{"id":…}`),
 * kept as their message and error (with the stack), without the echoed request.
 */
export function attachLogs(cases: FiveXxCase[], output: string): void {
  const byId = new Map<string, string[]>();
  for (const line of output.split('\n')) {
    const id = /"req":\{"id":"([^"]+)"/.exec(line)?.[1];
    if (!id) continue;
    let kept = clip(line, 6_000);
    try {
      const { context, msg, err } = JSON.parse(line) as {
        context?: string;
        msg?: string;
        err?: { type?: string; message?: string; stack?: string };
      };
      // ApiError messages start with the request's method and URL, which may be kilobytes long.
      const short = (msg ?? '').replace(/^(\w+ \S{0,300})\S*/, '$1…');
      kept = JSON.stringify({
        context,
        msg: clip(short, 3_000),
        error: err && { type: err.type, message: clip(err.message ?? '', 500), stack: clip(err.stack ?? '', 3_000) },
      });
    } catch {
      // not JSON: kept as it is
    }
    byId.set(id, [...(byId.get(id) ?? []), kept]);
  }
  for (const c of cases) if (c.request_id) c.server_log = byId.get(c.request_id) ?? [];
}

/** What tells two causes apart: the error's first line, its `caused by`, the first frame in our libs (numbers masked); else the answer. */
function cause(c: FiveXxCase): string {
  for (const line of c.server_log) {
    let text = line;
    try {
      const { msg, error } = JSON.parse(line) as { msg?: string; error?: { stack?: string } };
      text = `${msg ?? ''}\n${error?.stack ?? ''}`;
    } catch {
      // not JSON
    }
    const error = /((?:\w*Error|error): [^\n]*)/.exec(text)?.[1];
    const causedBy = /caused by: ([^\n]*)/.exec(text)?.[1];
    const frame = /at (?:async )?([\w.<>]+) \([^)]*\/libs\/[^)]*\)/.exec(text)?.[1];
    if (error)
      return [error.slice(0, 200), causedBy, frame && `at ${frame}`].filter(Boolean).join(' | ').replace(/\d+/g, 'N');
  }
  return c.answer
    .slice(0, 160)
    .replace(/"request":"[^"]*"/, '')
    .replace(/\d+/g, 'N');
}

/**
 * Prints each distinct cause once (the routes it was seen on, one request in full, its answer and
 * server log) and writes every case, plus the bodies of the first ones, under `dir`.
 */
export function reportCases(
  cases: FiveXxCase[],
  bodies: Map<number, Buffer>,
  dir: string,
  name: string,
  print: (line: string) => void,
): string | undefined {
  if (cases.length === 0) return undefined;
  mkdirSync(dir, { recursive: true });
  for (const c of cases) {
    const body = bodies.get(c.n);
    if (!body) continue;
    c.body_file = join(dir, `${name}-case-${c.n}.bin`);
    writeFileSync(c.body_file, body);
  }
  const file = join(dir, `${name}-5xx.json`);
  writeFileSync(file, JSON.stringify(cases, null, 1));
  const groups = new Map<string, FiveXxCase[]>();
  for (const c of cases) {
    const key = `${c.status} ${cause(c)}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  print(`${cases.length} answers ≥ 500 in ${groups.size} distinct causes (all cases: ${file})`);
  for (const c of cases.slice(0, 30))
    print(
      `  ${c.status} ← ${c.method} ${c.path.slice(0, 200)} ${JSON.stringify(c.headers).slice(0, 200)} body ${JSON.stringify(c.body_prefix.slice(0, 120))}: ${c.answer.slice(0, 160)}`,
    );
  for (const [key, group] of groups) {
    const c = group[0];
    const routes = [...new Set(group.map((g) => g.route))];
    print(`\n— ${group.length} × ${key}`);
    print(`  on ${routes.length} route(s): ${routes.join(', ')}`);
    print(`  request: ${c.method} ${c.path}`);
    print(`  headers: ${JSON.stringify(c.headers)}`);
    print(
      `  body (${c.body_bytes} bytes): ${JSON.stringify(c.body_prefix.slice(0, 300))}${c.body_file ? ` (whole: ${c.body_file})` : ''}`,
    );
    print(`  answer: ${c.status} ${c.answer.slice(0, 300)}`);
    for (const line of c.server_log.slice(0, 2)) print(`  server log: ${line.slice(0, 2_500)}`);
  }
  return file;
}

export function printFigures(r: FuzzResult, print: (line: string) => void): void {
  print(
    `\nfuzz[${r.mode}] seed=${r.seed}: ${r.requests} requests in ${r.seconds} s (sent in ${r.phases.send} s, ${Math.round(r.requests / Math.max(r.phases.send, 1))}/s; start ${r.phases.start} s, check ${r.phases.check} s), stopped by ${r.stopped_by}`,
  );
  print(`  statuses: ${JSON.stringify(r.by_status)}`);
  print(`  5xx: ${r.five_xx} ${JSON.stringify(r.five_xx_by_route)}`);
  print(
    `  crashes: ${r.crashes}, failed health checks: ${r.health_failures} (slowest ${r.health_max_ms} ms), exit code at stop: ${r.exit_code}`,
  );
  print(`  no answer: ${r.no_answer} (timeouts: ${r.timeouts})`);
  for (const example of r.no_answer_examples) print(`    ${JSON.stringify(example)}`);
  print(
    `  good events: sent ${r.good_events_sent}, acknowledged ${r.acked_events}, lost ${r.lost}, duplicated ${r.duplicated}, under another person's id ${r.fused} (${r.identity_merge}), stored unacknowledged ${r.stored_unacked}; good requests refused ${r.good_refused}`,
  );
  print(
    `  routes: ${r.routes_unreached.length ? `never reached past routing or auth: ${r.routes_unreached.join(', ')}` : 'every served route of the matrix answered beyond routing and auth'} (statuses per route: ${r.routes_file})`,
  );
  print(`  slowest routes: ${JSON.stringify(r.slowest_routes)}`);
  for (const slow of r.slow_requests) print(`  slow answer: ${JSON.stringify(slow).slice(0, 1_500)}`);
  print(
    `  keep-alive connections stalled after a refused body: ${r.keep_alive_stalls.length ? r.keep_alive_stalls.join('; ') : 'none'}`,
  );
  print(`  export: status ${r.export_status}, lines that are not JSON ${r.export_bad_lines}`);
}

/** Keeps per-route answer times and statuses: where the time went, and whether each route was reached past routing and auth. */
export class RouteStats {
  private readonly times = new Map<
    string,
    { n: number; total: number; max: number; statuses: Record<number, number> }
  >();

  add(route: string, ms: number, status: number): void {
    const t = this.times.get(route) ?? { n: 0, total: 0, max: 0, statuses: {} };
    t.statuses[status] = (t.statuses[status] ?? 0) + 1;
    this.times.set(route, { n: t.n + 1, total: t.total + ms, max: Math.max(t.max, ms), statuses: t.statuses });
  }

  slowest(count = 8): FuzzResult['slowest_routes'] {
    const sorted = [...this.times].sort((a, b) => b[1].total - a[1].total).slice(0, count);
    return Object.fromEntries(
      sorted.map(([route, t]) => [route, { n: t.n, avg_ms: Math.round(t.total / t.n), max_ms: t.max }]),
    );
  }

  /**
   * Routes of the matrix whose every answer was a refusal before their handler (no answer, 401, 405,
   * 431, or 404 where the path has no `:param` that a handler could fail to find).
   */
  unreached(routes: string[]): string[] {
    const handled = (route: string, s: string) =>
      !['0', '401', '405', '431'].includes(s) && (s !== '404' || /[:*]/.test(route));
    return routes.filter((route) => !Object.keys(this.times.get(route)?.statuses ?? {}).some((s) => handled(route, s)));
  }

  write(file: string): void {
    writeFileSync(
      file,
      JSON.stringify(Object.fromEntries([...this.times].sort().map(([route, t]) => [route, t.statuses])), null, 1),
    );
  }
}
