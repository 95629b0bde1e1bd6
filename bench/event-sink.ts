import 'reflect-metadata';
import { loadConfig } from '@analytics/config';
import { encodeEventRow, EventRow } from '@analytics/events';
import { KafkaEventSink } from '@analytics/ingest';
import { createKafka, ensureTopics, topicSpecs } from '@analytics/kafka';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { percentile, round } from './support/load';

/**
 * `npm run build && KAFKA_BROKERS=… node dist/bench/event-sink.js`: the gateway's Kafka sink alone, many
 * small concurrent requests, against a real broker (e.g. `node scripts/kafka.js start`). No HTTP, no validation: what one
 * gateway's publish path sustains, and how long a request waits for its acknowledgement. One line per
 * scenario, then JSON.
 *
 * BENCH_SECONDS per scenario (default 8), BENCH_PARTITIONS (12, the product's default),
 * BENCH_SCENARIOS (`<concurrency>x<events per request>`, default `16x1,64x1,256x1,64x10,256x10,64x100`),
 * BENCH_BROKER_PID (the broker's process: its CPU per event is reported too). CPU per event is the
 * steadier figure on a shared machine: throughput moves with whatever else runs.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const PARTITIONS = process.env.BENCH_PARTITIONS ?? '12';
const SCENARIOS = (process.env.BENCH_SCENARIOS ?? '16x1,64x1,256x1,64x10,256x10,64x100')
  .split(',')
  .map((s) => s.split('x').map(Number) as [number, number]);

process.removeAllListeners('warning');

const BROKER_PID = process.env.BENCH_BROKER_PID;
/** CPU seconds of the broker so far (Linux: utime + stime in clock ticks of 10 ms). */
function brokerCpuSeconds(): number {
  if (!BROKER_PID) return NaN;
  const fields = readFileSync(`/proc/${BROKER_PID}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** 20 properties, about 360 bytes as sent, as in DESIGN.md's stage costs. */
function rows(count: number): EventRow[] {
  const properties = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, i % 2 ? i * 7 : `value-${i}`]));
  return Array.from({ length: count }, () =>
    encodeEventRow({
      projectId: 1,
      event: 'Bench',
      timeMs: Date.now(),
      distinctId: `user-${Math.floor(Math.random() * 100_000)}`,
      insertId: randomBytes(12).toString('hex'),
      properties,
      processedAtMs: Date.now(),
    }),
  );
}

async function main(): Promise<void> {
  const brokers = process.env.KAFKA_BROKERS;
  if (!brokers) throw new Error('set KAFKA_BROKERS (node scripts/kafka.js start)');
  const config = loadConfig({
    KAFKA_BROKERS: brokers,
    KAFKA_TOPIC_PREFIX: `bench-sink-${Date.now()}.`,
    KAFKA_EVENTS_PARTITIONS: PARTITIONS,
    LOG_LEVEL: 'error',
  });
  const kafka = createKafka(config.kafka!);
  await ensureTopics(kafka, topicSpecs(config.kafka!));
  const sink = new KafkaEventSink(config);
  await sink.onApplicationBootstrap();
  const results = [];
  try {
    // Warm-up: connections, producer ids, the partitions' leaders.
    await Promise.all(Array.from({ length: 64 }, () => sink.publish(1, rows(1))));
    for (const [concurrency, perRequest] of SCENARIOS) {
      const latencies: number[] = [];
      let failed = 0;
      let running = true;
      const client = async () => {
        while (running) {
          const batch = rows(perRequest);
          const started = performance.now();
          try {
            await sink.publish(1, batch);
            latencies.push(performance.now() - started);
          } catch {
            failed++;
          }
        }
      };
      const began = performance.now();
      const cpuBefore = process.cpuUsage();
      const brokerBefore = brokerCpuSeconds();
      const clients = Array.from({ length: concurrency }, client);
      await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
      running = false;
      await Promise.all(clients);
      const seconds = (performance.now() - began) / 1000;
      const cpu = process.cpuUsage(cpuBefore);
      const events = latencies.length * perRequest;
      const result = {
        concurrency,
        eventsPerRequest: perRequest,
        requestsPerSecond: Math.round(latencies.length / seconds),
        eventsPerSecond: Math.round((latencies.length * perRequest) / seconds),
        p50Ms: round(percentile(latencies, 50)),
        p99Ms: round(percentile(latencies, 99)),
        /** This process (the sink, and the generator making rows), and the broker. */
        gatewayCpuMicrosPerEvent: round((cpu.user + cpu.system) / events, 2),
        brokerCpuMicrosPerEvent: round(((brokerCpuSeconds() - brokerBefore) * 1e6) / events, 2),
        failed,
      };
      results.push(result);
      process.stdout.write(
        `bench: ${concurrency} clients × ${perRequest} event(s): ${result.requestsPerSecond} requests/s, ${result.eventsPerSecond} events/s, ` +
          `p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, CPU µs/event: this process ${result.gatewayCpuMicrosPerEvent}, broker ${result.brokerCpuMicrosPerEvent}; ${failed} failed\n`,
      );
    }
  } finally {
    await sink.onApplicationShutdown();
  }
  process.stdout.write(
    `${JSON.stringify({ partitions: Number(PARTITIONS), seconds: SECONDS, cores: cpus().length, load: loadavg()[0], results })}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
