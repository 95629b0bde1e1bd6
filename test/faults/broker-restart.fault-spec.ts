import { eventually, temporaryDirectory } from '@analytics/testing';
import { join } from 'node:path';
import { compareWithAcked, Pipeline, readStored, RetryingImporter, runId } from '../multi-process/pipeline-harness';
import { recordScenario } from './fault-results';
import { PacedLoad } from './load-pacer';

interface Broker {
  brokers: string;
  pid: number;
  stop(): Promise<void>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const kafkaScript = require('../../scripts/kafka.js') as {
  startKafka(options: { port: number; dataDir: string }): Promise<Broker>;
  findFreePort(): Promise<number>;
};

const TOTAL_EVENTS = Number(process.env.FAULTS_BROKER_EVENTS ?? 100_000);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * The broker (our own, not the shared one) goes away twice during ingestion, on the same port and
 * data directory: once stopped cleanly (SIGTERM), once killed (SIGKILL). Gateways answer 503 while it
 * is gone and clients retry with backoff, as the SDKs do. Every acknowledged event must be stored
 * exactly once.
 */
describe('broker stopped and restarted under load', () => {
  const dir = temporaryDirectory('fault-kafka');
  const dataDir = join(dir.path, 'data');
  let port: number;
  let broker: Broker | undefined;
  let pipeline: Pipeline | undefined;

  const startBroker = async () => (broker = await kafkaScript.startKafka({ port, dataDir }));

  beforeAll(async () => {
    port = await kafkaScript.findFreePort();
    await startBroker();
    pipeline = await Pipeline.create({ brokers: broker!.brokers });
  }, 90_000);
  afterAll(async () => {
    await pipeline?.dispose();
    await broker?.stop();
    dir.remove();
  }, 90_000);

  it('loses and duplicates nothing when the broker stops and when it is killed', async () => {
    const p = pipeline!;
    const started = Date.now();
    const [writer, ...gateways] = await Promise.all([
      p.start('writer', 'writer'),
      p.start('ingest', 'gateway-a'),
      p.start('ingest', 'gateway-b'),
    ]);
    // A client gives up on an answer after 10 s and sends the batch again, as server SDKs do.
    const importer = new RetryingImporter(p.project.basic, {
      maxBackoffMs: 2_000,
      giveUpAfterMs: 180_000,
      requestTimeoutMs: 10_000,
    });
    const load = new PacedLoad({
      importer,
      gateways: () => gateways.map((g) => g.url),
      runId: runId(),
      total: TOTAL_EVENTS,
      batchSize: 1_000,
      clients: 4,
      eventsPerSecond: 5_000,
    });
    let loadError: unknown;
    const loadDone = load.done.catch((error: unknown) => void (loadError = error));

    const outages: { how: string; atProgress: number; downMs: number; restartMs: number; failedAttempts: number }[] =
      [];
    for (const [how, atProgress] of [
      ['SIGTERM', 0.25],
      ['SIGKILL', 0.6],
    ] as const) {
      await eventually(
        () => {
          if (loadError) throw loadError;
          if (load.progress < atProgress) throw new Error(`load at ${load.progress}, waiting for ${atProgress}`);
        },
        { timeoutMs: 120_000, intervalMs: 50 },
      );
      const failures = () => importer.unavailable + importer.connectionErrors + importer.timeouts;
      const before = failures();
      const down = Date.now();
      const current = broker!;
      broker = undefined;
      if (how === 'SIGTERM') {
        await current.stop();
      } else {
        process.kill(current.pid, 'SIGKILL');
        await eventually(() => {
          if (alive(current.pid)) throw new Error('broker still alive');
        });
      }
      // Down for a while: longer than the clients' 10 s timeout, so they resend batches the
      // gateways still hold (the gateways' own produce retries take about a minute to give up).
      await pause(12_000);
      const restart = Date.now();
      await startBroker();
      outages.push({
        how,
        atProgress,
        downMs: Date.now() - down,
        restartMs: Date.now() - restart,
        failedAttempts: failures() - before,
      });
    }

    await loadDone;
    if (loadError) throw loadError;
    await p.waitUntilWritten(120_000);
    expect(await p.stop(writer)).toBe(0);

    const result = compareWithAcked(await readStored(p.chdbDir, p.project.id), importer.acked, importer.attempted);
    recordScenario({
      ...result,
      scenario: 'broker-restart',
      seconds: Math.round((Date.now() - started) / 1000),
      notes: {
        outages,
        ...importer.summary(),
        rawRowsAboveFinal: result.raw - result.stored,
      },
    });
    expect(result).toMatchObject({
      acked: TOTAL_EVENTS,
      lost: 0,
      duplicated: 0,
      unknown: 0,
      stored: TOTAL_EVENTS,
      distinctKeys: TOTAL_EVENTS,
    });
  });
});
