import 'reflect-metadata';
import { compressionsAlgorithms } from '@platformatic/kafka';
import { MIX_SOURCES, shapedRows } from './support/event-mixes';

/**
 * `npm run build && node dist/bench/kafka-codecs.js`: what each KAFKA_COMPRESSION codec makes of the
 * gateway's record batches, for two mixes of events (bench:storage's: the load generator's, which
 * repeat 8 request templates and compress far better than real traffic, and web and mobile SDK events):
 * each event shaped into the stored row the gateway publishes, rows gathered into batches of about
 * BENCH_CODEC_BATCH_BYTES (1 MiB: a shared send of several requests' messages for one partition),
 * each batch compressed and decompressed with @platformatic/kafka's codec, as the gateway's producer
 * and (through kafkajs-codecs.ts) the writers do. Bytes per event of the compressed batches (before
 * the record batch's own framing, a few bytes per record), and CPU µs per event to compress and to
 * decompress, in this process. BENCH_CODEC_EVENTS (200,000 per mix). The last line is JSON.
 */
const EVENTS = Number(process.env.BENCH_CODEC_EVENTS ?? 200_000);
const BATCH_BYTES = Number(process.env.BENCH_CODEC_BATCH_BYTES ?? 1_048_576);
const CODECS = ['none', 'gzip', 'snappy', 'lz4', 'zstd'] as const;

const cpuMicros = (work: () => void): number => {
  const before = process.cpuUsage();
  work();
  const used = process.cpuUsage(before);
  return used.user + used.system;
};

function batchesOf(mix: string): { batches: Buffer[]; events: number } {
  const batches: Buffer[] = [];
  let lines: string[] = [];
  let bytes = 0;
  let events = 0;
  for (const { line } of shapedRows(MIX_SOURCES[mix](EVENTS), 1)) {
    lines.push(line);
    bytes += Buffer.byteLength(line);
    events++;
    if (bytes >= BATCH_BYTES) {
      batches.push(Buffer.from(lines.join('')));
      lines = [];
      bytes = 0;
    }
  }
  if (lines.length) batches.push(Buffer.from(lines.join('')));
  return { batches, events };
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

const results: Record<string, Record<string, unknown>> = {};
for (const mix of ['loadgen', 'sdk']) {
  const { batches, events } = batchesOf(mix);
  results[mix] = {};
  for (const codec of CODECS) {
    const { compressSync, decompressSync } = compressionsAlgorithms[codec];
    compressSync(batches[0]); // the first call loads the codec (WebAssembly for snappy and lz4)
    let compressed: Buffer[] = [];
    const compressUs = cpuMicros(() => (compressed = batches.map((batch) => compressSync(batch))));
    const decompressUs = cpuMicros(() => compressed.forEach((batch) => decompressSync(batch)));
    const bytes = compressed.reduce((sum, batch) => sum + batch.length, 0);
    results[mix][codec] = {
      bytes_per_event: round(bytes / events, 1),
      compress_us_per_event: round(compressUs / events),
      decompress_us_per_event: round(decompressUs / events),
    };
    process.stdout.write(`${mix} ${codec}: ${JSON.stringify(results[mix][codec])}\n`);
  }
}
process.stdout.write(
  `${JSON.stringify({ date: new Date().toISOString(), events: EVENTS, batch_bytes: BATCH_BYTES, results })}\n`,
);
