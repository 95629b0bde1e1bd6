import { eventually } from '@analytics/testing';
import fc from 'fast-check';
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { RequestPlan } from './hostile-requests';
import { fusionAttempts } from './identity-links';

/** The good traffic's project and its owner's credentials. */
export interface GoodProject {
  id: number;
  token: string;
  secret: string;
  ownerBasic: string;
}

export interface GoodStep {
  kind:
    'import' | 'import-ndjson' | 'import-gzip' | 'track-get' | 'track-form' | 'track-json' | 'resend' | 'read' | 'link';
  size: number;
  spice: number;
}

/** What the good traffic does, drawn with the hostile requests from the same seed. */
export const goodStep: fc.Arbitrary<GoodStep> = fc.record({
  kind: fc.constantFrom(
    'import',
    'import',
    'import-ndjson',
    'import-gzip',
    'track-get',
    'track-form',
    'track-form',
    'track-json',
    'resend',
    'read',
    'read',
    'link',
  ),
  size: fc.integer({ min: 1, max: 40 }),
  spice: fc.nat(),
});

/** Valid events need not be plain: values the rules repair or keep (NUL, lone surrogates, 2^64, long strings) must be stored too. */
const SPICES = [
  '',
  ',"nul":"a\\u0000b"',
  ',"sur":"\\ud800x","\\udfffk":1',
  ',"big":18446744073709551616,"digits":123456789012345678901234567890',
  ',"huge":1e308,"nz":-0,"tiny":5e-324',
  `,"long":"${'x'.repeat(400)}"`,
  ',"emoji":"😀","nest":{"a":{"b":[1,"2",null]}}',
  ',"constructor":"c","toString":2,"q":"\' OR 1=1 --","ph":"{x:String}","bs":"\\\\"',
];

/**
 * Half an hour ahead, in seconds, as a phone whose clock runs fast sends it (its retries, the resends,
 * must still collapse); the receipt time instead where that would be tomorrow, beyond the read-back's days.
 */
function aheadSeconds(nowMs: number): number {
  const ahead = nowMs + 1_800_000;
  return Math.floor((new Date(ahead).getUTCDate() === new Date(nowMs).getUTCDate() ? ahead : nowMs) / 1000);
}

export interface SentGood {
  plan: RequestPlan;
  insertIds: string[];
  /** Whether an answer acknowledges the events (every one of them). */
  acknowledges(status: number, body: string): boolean;
}

/**
 * Good requests interleaved with the hostile ones: imports (secret, `strict=1`) and tracks with
 * unique `$insert_id`s, resends of earlier requests (a client retry: they must collapse), and
 * reads. It keeps what was acknowledged, to be found exactly once in the export at the end.
 */
export class GoodTraffic {
  readonly acked = new Set<string>();
  /** The distinct id each good event was sent with: the export must show it under that id (none is ever merged). */
  readonly sentDistinct = new Map<string, string>();
  readonly refused: { kind: string; status: number; body: string }[] = [];
  sentEvents = 0;
  private counter = 0;
  private readonly history: SentGood[] = [];

  constructor(
    private readonly project: GoodProject,
    /** Unique to the run: `$insert_id`s are `<prefix>-<n>`, at most 36 characters of [A-Za-z0-9-]. */
    readonly prefix: string,
  ) {}

  private events(step: GoodStep, name: string, tracked: boolean): { text: string; items: string[]; ids: string[] } {
    const ids: string[] = [];
    const now = Date.now();
    const items = Array.from({ length: step.size }, (_, i) => {
      const id = `${this.prefix}-${(this.counter++).toString(36)}`;
      ids.push(id);
      const time =
        (step.spice + i) % 3 === 0 ? now : (step.spice + i) % 6 === 5 ? aheadSeconds(now) : Math.floor(now / 1000);
      const token = tracked ? `"token":${JSON.stringify(this.project.token)},` : '';
      const distinct = `g-${(step.spice + i) % 97}`;
      this.sentDistinct.set(id, distinct);
      return `{"event":"${name}","properties":{${token}"distinct_id":"${distinct}","$insert_id":"${id}","time":${time},"n":${i}${SPICES[(step.spice + i) % SPICES.length]}}}`;
    });
    this.sentEvents += ids.length;
    return { text: `[${items.join(',')}]`, items, ids };
  }

  /** The request for a step; reads and resends carry no new events. */
  next(step: GoodStep, today: string): SentGood {
    const basic = `Basic ${Buffer.from(`${this.project.secret}:`).toString('base64')}`;
    const importOk = (size: number) => (status: number, body: string) =>
      status === 200 && body.includes(`"num_records_imported":${size}`);
    const trackOk = (status: number, body: string) =>
      status === 200 && (body === '1' || body === '{"error":null,"status":1}');
    const plan = (method: string, path: string, headers: Record<string, string>, body?: Buffer): RequestPlan => ({
      category: `good:${step.kind}`,
      route: `${method} ${path.split('?')[0]}`,
      method,
      path,
      headers,
      body,
    });
    let sent: SentGood;
    if (step.kind === 'resend' && this.history.length > 0) {
      const earlier = this.history[step.spice % this.history.length];
      return { ...earlier, plan: { ...earlier.plan, category: 'good:resend' }, insertIds: [] };
    }
    if (step.kind === 'read' || step.kind === 'resend') return this.read(step, today);
    if (step.kind === 'link') {
      const [a, b] = [`g-${step.spice % 97}`, `g-${(step.spice + 1 + (step.size % 96)) % 97}`];
      const text = `[${fusionAttempts(a, b, this.counter++, this.prefix, this.project.token, Math.floor(Date.now() / 1000)).join(',')}]`;
      sent = {
        plan: plan('POST', '/track?verbose=1', { 'content-type': 'application/json' }, Buffer.from(text)),
        insertIds: [],
        acknowledges: trackOk,
      };
      this.history.push(sent);
      return sent;
    }
    if (step.kind.startsWith('import')) {
      const { text, items, ids } = this.events(step, 'fuzz_good_import', false);
      const json = { 'content-type': 'application/json', authorization: basic };
      const body =
        step.kind === 'import-ndjson'
          ? plan(
              'POST',
              '/import?strict=1',
              { ...json, 'content-type': 'application/x-ndjson' },
              Buffer.from(items.join('\n')),
            )
          : step.kind === 'import-gzip'
            ? plan('POST', '/import?strict=1', { ...json, 'content-encoding': 'gzip' }, gzipSync(text))
            : plan('POST', '/import?strict=1', json, Buffer.from(step.spice % 7 === 0 ? `\uFEFF${text}` : text));
      sent = { plan: body, insertIds: ids, acknowledges: importOk(ids.length) };
    } else {
      const { text, ids } = this.events(
        { ...step, size: step.kind === 'track-get' ? Math.min(step.size, 8) : step.size },
        'fuzz_good_track',
        true,
      );
      const data = Buffer.from(text).toString('base64');
      sent =
        step.kind === 'track-get'
          ? {
              plan: plan('GET', `/track?verbose=1&data=${encodeURIComponent(data)}`, {}),
              insertIds: ids,
              acknowledges: trackOk,
            }
          : step.kind === 'track-form'
            ? {
                plan: plan(
                  'POST',
                  '/track',
                  { 'content-type': step.spice % 2 ? 'text/plain' : 'application/x-www-form-urlencoded' },
                  Buffer.from(`data=${encodeURIComponent(data)}`),
                ),
                insertIds: ids,
                acknowledges: trackOk,
              }
            : {
                plan: plan('POST', '/track?verbose=1', { 'content-type': 'application/json' }, Buffer.from(text)),
                insertIds: ids,
                acknowledges: trackOk,
              };
    }
    this.history.push(sent);
    if (this.history.length > 200) this.history.shift();
    return sent;
  }

  private read(step: GoodStep, today: string): SentGood {
    const p = this.project.id;
    const paths = [
      `/api/2.0/export?from_date=${today}&to_date=${today}&limit=5&project_id=${p}`,
      `/api/query/segmentation?event=fuzz_good_import&from_date=${today}&to_date=${today}&project_id=${p}`,
      `/api/query/events/names?type=general&project_id=${p}`,
      `/api/query/engage?project_id=${p}&where=${encodeURIComponent('defined(user["$name"])')}`,
      '/api/app/me',
      `/api/app/projects/${p}/annotations`,
      `/api/app/projects/${p}/schemas`,
      '/healthz',
    ];
    const path = paths[step.spice % paths.length];
    return {
      plan: {
        category: 'good:read',
        route: `GET ${path.split('?')[0].replace(/projects\/\d+/, 'projects/:projectId')}`,
        method: 'GET',
        path,
        headers: { authorization: this.project.ownerBasic },
      },
      insertIds: [],
      acknowledges: (status) => status === 200 || status === 429,
    };
  }

  /** Records an answer to a good request. */
  answered(sent: SentGood, status: number, body: string): void {
    if (sent.acknowledges(status, body)) for (const id of sent.insertIds) this.acked.add(id);
    else this.refused.push({ kind: sent.plan.category, status, body: body.slice(0, 300) });
  }
}

export interface StoredCounts {
  counts: Map<string, number>;
  /** The distinct id the export shows for each of the run's events (its first copy). */
  distinct: Map<string, string>;
  lines: number;
  badLines: string[];
  status: number;
  /** The answer's first bytes when it is not a 200. */
  body: string;
}

export interface ReadBack {
  status: number;
  body: string;
  badLines: string[];
  /** Acknowledged, not in the export. */
  lost: number;
  /** Copies beyond the first of any of the run's events. */
  duplicated: number;
  /** In the export, never acknowledged (a request whose answer was lost, say): not an error. */
  unacked: number;
  /** Acknowledged and exported under another person's distinct id: two people were joined. */
  fused: number;
}

/** Exports the run's days until every acknowledged event is there (or the time is up), then counts. */
export async function readBack(
  target: { baseUrl: string; good: GoodProject },
  good: GoodTraffic,
  fromDay: string,
  toDay: string,
  timeoutMs: number,
): Promise<ReadBack> {
  let stored: StoredCounts | undefined;
  let failure = '';
  await eventually(
    async () => {
      stored = await exportCounts(target.baseUrl, target.good, fromDay, toDay, good.prefix);
      if ([...good.acked].some((id) => !stored!.counts.has(id)))
        throw new Error('not all acknowledged events are stored yet');
    },
    { timeoutMs, intervalMs: 2_000 },
  ).catch((error: unknown) => (failure = String(error)));
  if (!stored)
    return { status: 0, body: failure, badLines: [], lost: good.acked.size, duplicated: 0, unacked: 0, fused: 0 };
  const counts = stored.counts;
  const duplicated = [...counts.values()].reduce((sum, n) => sum + n - 1, 0);
  return {
    status: stored.status,
    body: stored.body,
    badLines: stored.badLines,
    lost: [...good.acked].filter((id) => !counts.has(id)).length,
    duplicated,
    unacked: [...counts.keys()].filter((id) => !good.acked.has(id)).length,
    fused: [...good.acked].filter(
      (id) => stored!.distinct.has(id) && stored!.distinct.get(id) !== good.sentDistinct.get(id),
    ).length,
  };
}

/** Streams the raw export of the days and counts this run's `$insert_id`s (every line must be JSON). */
export function exportCounts(
  baseUrl: string,
  project: GoodProject,
  fromDay: string,
  toDay: string,
  prefix: string,
): Promise<StoredCounts> {
  const url = new URL(`/api/2.0/export?from_date=${fromDay}&to_date=${toDay}&project_id=${project.id}`, baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: project.ownerBasic }, timeout: 300_000 }, (res) => {
      const result: StoredCounts = {
        counts: new Map(),
        distinct: new Map(),
        lines: 0,
        badLines: [],
        status: res.statusCode ?? 0,
        body: '',
      };
      let rest = '';
      const line = (text: string) => {
        if (!text) return;
        result.lines++;
        try {
          const properties = (JSON.parse(text) as { properties?: { $insert_id?: unknown; distinct_id?: unknown } })
            .properties;
          const id = properties?.$insert_id;
          if (typeof id === 'string' && id.startsWith(`${prefix}-`)) {
            result.counts.set(id, (result.counts.get(id) ?? 0) + 1);
            if (!result.distinct.has(id)) result.distinct.set(id, String(properties?.distinct_id));
          }
        } catch {
          if (result.badLines.length < 20) result.badLines.push(text.slice(0, 500));
        }
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const parts = (rest + chunk).split('\n');
        rest = parts.pop() ?? '';
        if (result.status === 200) parts.forEach(line);
        else if (rest.length > 4_000) rest = rest.slice(0, 4_000);
      });
      res.on('end', () => {
        if (result.status === 200) line(rest);
        else result.body = rest.slice(0, 2_000);
        resolve(result);
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('export timed out')));
    req.on('error', reject);
    req.end();
  });
}
