import { partitionFor, validateEvent } from '@analytics/events';
import { ACKS_ALL, createIdempotentProducer, ensureTopics, ROWS_HEADER } from '@analytics/kafka';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Admin, Kafka } from 'kafkajs';
import { ClickHouseEngine, clickhouseMode, startClickHouseEngine } from './clickhouse-engine';
import { BodyTemplate, EVENTS_PER_BATCH, PLACEHOLDER, requestPrefix, splitAtPrefix } from './event-bodies';
import { GroupWatch } from './kafka-watch';
import { BenchProcess, memoryOf, poll, spawnScript } from './processes';

export interface BarePipelineOptions {
  root: string;
  /** The bench run's tag: topic and group names, insert ids. */
  run: string;
  /** Where the pipeline's own ClickHouse engine keeps its data. */
  work: string;
  kafka: Kafka;
  admin: Admin;
  brokers: string;
  partitions: number;
  projectId: number;
  /** The gateway's request bodies: the bare producer sends the rows the gateway would make of them. */
  templates: BodyTemplate[];
  clients: number;
  /** One message per batch and partition, as the gateway sends, rather than one per batch. */
  split: boolean;
  nodeFlags: string[];
}

export interface BarePipeline {
  writer: BenchProcess;
  engine: ClickHouseEngine;
  watch: GroupWatch;
  /** Bytes of one stored row. */
  rowBytes: number;
  /** The bare pipeline's own processes (the broker is shared, the producer runs in the load generator). */
  pids(): Record<string, number>;
  /** Produces from `clients` senders in a closed loop for `seconds`; the events sent. */
  produce(seconds: number): Promise<number>;
  memory(): { writerPeakRssMb?: number; enginePeakRssMb?: number };
  stop(): Promise<void>;
}

/**
 * The bare pipeline bench:ingest compares ours with: the same rows produced straight to Kafka (one
 * message per 2000-event batch, acks=-1, idempotent) and a consumer (bench/bare-writer.ts) inserting
 * the same bytes into a ClickHouse engine of its own.
 */
export async function startBarePipeline(options: BarePipelineOptions, engineLabel: string): Promise<BarePipeline> {
  const { run, kafka, partitions } = options;
  const topic = `bench${run}.bare-events`;
  const group = `bench${run}.bare-writer`;
  await ensureTopics(kafka, [{ topic, numPartitions: partitions, replicationFactor: 1 }]);
  const engine = await startClickHouseEngine(
    clickhouseMode(),
    'bare-clickhouse',
    join(options.work, 'bare-clickhouse'),
  );
  const writer = spawnScript(
    'bare-writer',
    join(options.root, 'dist/bench/bare-writer.js'),
    { BARE_BROKERS: options.brokers, BARE_TOPIC: topic, BARE_GROUP: group, BARE_CLICKHOUSE_URL: engine.url },
    options.nodeFlags,
  );
  const producer = createIdempotentProducer(kafka);
  const stop = async () => {
    await producer.disconnect().catch(() => undefined);
    await writer.stop();
    await engine.process?.stop(10_000);
  };
  try {
    await poll(() => {
      if (writer.child.exitCode !== null) throw new Error(`bare writer exited:\n${writer.output()}`);
      if (!writer.output().includes('bare writer running')) throw new Error('bare writer not running');
    }, 60_000);
    await producer.connect();
  } catch (error) {
    await stop();
    throw error;
  }

  // Each template's rows, whole (one message per batch) or grouped by partition as the gateway does.
  const rowTemplates = options.templates.map((template) => {
    const events = JSON.parse(template.parts.join(PLACEHOLDER)) as unknown[];
    const byPartition = new Map<number, string[]>();
    const lines = events.map((event) => {
      const outcome = validateEvent(event, {
        projectId: options.projectId,
        nowMs: Date.now(),
        policy: 'import',
        requireInsertId: true,
        newInsertId: randomUUID,
      });
      if (outcome.kind !== 'accepted') throw new Error(`bench event refused: ${JSON.stringify(outcome)}`);
      const partition = partitionFor(options.projectId, outcome.row.distinctId, partitions);
      byPartition.set(partition, [...(byPartition.get(partition) ?? []), outcome.row.line]);
      return outcome.row.line;
    });
    return {
      whole: splitAtPrefix(lines.join('')),
      split: [...byPartition].map(([partition, rows]) => ({
        partition,
        rows: rows.length,
        parts: splitAtPrefix(rows.join('')),
      })),
    };
  });

  let sequence = 0;
  return {
    writer,
    engine,
    watch: new GroupWatch(options.admin, topic, group),
    rowBytes: Math.round(Buffer.byteLength(rowTemplates[0].whole.join(PLACEHOLDER)) / EVENTS_PER_BATCH),
    pids: () => ({ 'bare writer': writer.pid, ...(engine.process ? { [engineLabel]: engine.process.pid } : {}) }),
    async produce(seconds) {
      let events = 0;
      const until = Date.now() + seconds * 1000;
      await Promise.all(
        Array.from({ length: options.clients }, async (_, client) => {
          while (Date.now() < until) {
            const n = sequence++;
            const rows = rowTemplates[n % rowTemplates.length];
            const prefix = requestPrefix(run, client, 100_000_000 + n);
            const messages = options.split
              ? rows.split.map((m) => ({
                  partition: m.partition,
                  value: m.parts.join(prefix),
                  headers: { [ROWS_HEADER]: String(m.rows) },
                }))
              : [
                  {
                    partition: n % partitions,
                    value: rows.whole.join(prefix),
                    headers: { [ROWS_HEADER]: String(EVENTS_PER_BATCH) },
                  },
                ];
            await producer.send({ topic, acks: ACKS_ALL, messages });
            events += EVENTS_PER_BATCH;
          }
        }),
      );
      return events;
    },
    memory: () => ({
      writerPeakRssMb: memoryOf(writer.pid)?.peakRssMb,
      enginePeakRssMb: engine.process && memoryOf(engine.process.pid)?.peakRssMb,
    }),
    stop,
  };
}
