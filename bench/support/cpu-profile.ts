import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  file: string;
  seconds: number;
  /** Seconds the main thread was busy (not idle) while profiled. */
  busySeconds: number;
  /** Share of busy samples by area: GC, idle, kafkajs, express/Nest, our libs, JSON, etc. */
  areas: Record<string, number>;
  /** The functions with the most self time. */
  top: { fn: string; share: number }[];
}

/** Which part of the stack a frame belongs to, by its script. */
function areaOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (functionName === '(garbage collector)') return 'gc';
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(program)') return 'native/program';
  if (url.includes('/kafkajs/')) return 'kafkajs';
  if (url.includes('/@clickhouse/') || url.includes('/chdb/')) return 'clickhouse-client/chdb';
  if (
    url.includes('/express/') ||
    url.includes('/router/') ||
    url.includes('/body-parser/') ||
    url.includes('/@nestjs/')
  )
    return 'express/nest';
  if (url.includes('/pino') || url.includes('/prom-client/')) return 'logging/metrics';
  if (url.includes('/libs/events/')) return 'libs/events (validate, encode)';
  if (url.includes('/libs/ingest/')) return 'libs/ingest';
  if (url.includes('/libs/event-writer/')) return 'libs/event-writer';
  if (url.startsWith('node:') || url === '')
    return functionName === 'parse' || functionName === 'stringify' ? 'JSON' : `node internals`;
  return 'other';
}

/** Self time per function and per area of one V8 .cpuprofile (`node --cpu-prof`). */
export function summarizeProfile(path: string): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMicros = new Map<number, number>();
  profile.samples.forEach((id, i) => selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  // Shares are of the time the thread was busy: idle samples are counted apart.
  let idle = 0;
  let total = 0;
  for (const [id, micros] of selfMicros) {
    if (byId.get(id)!.callFrame.functionName === '(idle)') idle += micros;
    else total += micros;
  }
  total ||= 1;
  const areas: Record<string, number> = {};
  const functions = new Map<string, number>();
  for (const [id, micros] of selfMicros) {
    const frame = byId.get(id)!.callFrame;
    const area = areaOf(frame);
    if (area === 'idle') continue;
    areas[area] = (areas[area] ?? 0) + micros;
    const where = frame.url ? `${frame.url.replace(/^.*\/(node_modules|dist)\//, '')}:${frame.lineNumber + 1}` : '';
    const key = `${frame.functionName || '(anonymous)'} ${where}`.trim();
    functions.set(key, (functions.get(key) ?? 0) + micros);
  }
  const share = (micros: number) => Math.round((micros / total) * 1000) / 10;
  return {
    file: path,
    seconds: Math.round((profile.endTime - profile.startTime) / 1e5) / 10,
    busySeconds: Math.round(total / 1e5) / 10,
    areas: Object.fromEntries(
      Object.entries(areas)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => [k, share(v)]),
    ),
    top: [...functions.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15)
      .map(([fn, micros]) => ({ fn, share: share(micros) })),
  };
}

export function profilesIn(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => join(dir, f));
  } catch {
    return [];
  }
}
