import { eventually, freePort, temporaryDirectory, testKafkaBrokers } from '@analytics/testing';
import { join } from 'node:path';
import { ClickHouseEngine, startClickHouseEngine } from '../../bench/support/clickhouse-engine';
import {
  compareWithAcked,
  Pipeline,
  readStored,
  RetryingImporter,
  RunningService,
  runId,
} from '../multi-process/pipeline-harness';
import { recordScenario } from './fault-results';
import { PacedLoad } from './load-pacer';
import { busy } from './process-cpu';

const EVENTS_PER_SECOND = 1_000;
/** Events that flow between two faults, so that each lands on a pipeline under load. */
const BETWEEN_FAULTS = 10_000;
/** The load runs until the faults are over (however long the machine makes them take), at most this many events. */
const MAX_EVENTS = 600_000;
/** How long the ClickHouse server stays dead while events keep arriving. */
const ENGINE_DOWN_MS = 10_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Production's writer topology: two writer processes in one consumer group, talking HTTP to a
 * ClickHouse server (the stand-in: chDB behind ClickHouse's HTTP interface, in a process of its own).
 * While four clients send paced load through two gateways (until the last fault is over):
 *  1. the second writer joins (the group shares the partitions out again);
 *  2. the first is SIGKILLed while it burns CPU (fetching or sending a batch: more often than not one
 *     in flight, uncommitted), so its partitions pass to the other once its session expires, and it is
 *     started again (shared out once more);
 *  3. the ClickHouse server is SIGKILLed while it inserts, stays down 10 s while both writers retry,
 *     and is started again on the same data directory and port.
 * Every acknowledged event must be stored exactly once, and nothing dead-lettered.
 */
describe('two writers through rebalances, the ClickHouse server killed and restarted', () => {
  const dir = temporaryDirectory('fault-clickhouse');
  const engineDir = join(dir.path, 'clickhouse');
  let port: number;
  let engine: ClickHouseEngine | undefined;
  let pipeline: Pipeline | undefined;

  const startEngine = async (name: string) =>
    (engine = await startClickHouseEngine('server', name, engineDir, { port }));

  beforeAll(async () => {
    port = await freePort();
    await startEngine('clickhouse');
    pipeline = await Pipeline.create({ brokers: testKafkaBrokers(), env: { CLICKHOUSE_URL: engine!.url } });
  }, 90_000);
  afterAll(async () => {
    await pipeline?.dispose();
    await engine?.process?.stop(10_000);
    dir.remove();
  }, 90_000);

  it(
    'stores every acknowledged event exactly once',
    async () => {
      const p = pipeline!;
      const started = Date.now();
      const [writerA, ...gateways] = await Promise.all([
        p.spawn('writer', 'writer-a'),
        p.spawn('ingest', 'gateway-a'),
        p.spawn('ingest', 'gateway-b'),
      ]);
      // Starts take long on a loaded machine (other tests share its two cores).
      await Promise.all([writerA, ...gateways].map((service) => p.waitReady(service, 120_000)));
      const importer = new RetryingImporter(p.project.basic, {
        maxBackoffMs: 2_000,
        giveUpAfterMs: 180_000,
        requestTimeoutMs: 10_000,
      });
      const load = new PacedLoad({
        importer,
        gateways: () => gateways.map((g) => g.url),
        runId: runId(),
        total: MAX_EVENTS,
        batchSize: 500,
        clients: 4,
        eventsPerSecond: EVENTS_PER_SECOND,
      });
      let loadError: unknown;
      const loadDone = load.done.catch((error: unknown) => void (loadError = error));
      /** Until `events` more events were acknowledged. */
      const flow = (events: number) => {
        const target = load.sentEvents + events;
        return eventually(
          () => {
            if (loadError) throw loadError;
            if (load.sentEvents < target) throw new Error(`${load.sentEvents} events sent, waiting for ${target}`);
          },
          { timeoutMs: 180_000, intervalMs: 50 },
        );
      };
      const steps: Record<string, unknown>[] = [];
      /** Lets events flow, then brings the fault about and waits for the pipeline to work through it. */
      const step = async (name: string, fault: () => Promise<Record<string, unknown>>) => {
        await flow(BETWEEN_FAULTS);
        const [since, eventsSentBefore] = [Date.now(), load.sentEvents];
        const notes = await fault();
        steps.push({
          step: name,
          eventsSentBefore,
          seconds: Number(((Date.now() - since) / 1000).toFixed(1)),
          ...notes,
        });
      };
      const rows = async (writer: RunningService) =>
        (await p.metric(writer, 'analytics_writer_rows_inserted_total')) ?? 0;
      /** Seconds from spawn to /readyz (start-up alone; the group join and first insert come after). */
      const startWriter = async (name: string): Promise<[RunningService, number]> => {
        const spawned = Date.now();
        const writer = await p.spawn('writer', name);
        await p.waitReady(writer, 120_000);
        return [writer, Number(((Date.now() - spawned) / 1000).toFixed(1))];
      };

      let writerB!: RunningService;
      let writerA2!: RunningService;
      let total: number;
      try {
        await step('second writer joined', async () => {
          let readySeconds: number;
          [writerB, readySeconds] = await startWriter('writer-b');
          const rowsOfA = await rows(writerA);
          // Both insert afterwards: each holds partitions.
          await Promise.all([p.waitForInserts(writerB, 0, 90_000), p.waitForInserts(writerA, rowsOfA, 90_000)]);
          return { readySeconds };
        });
        await step('first writer killed and restarted', async () => {
          const killed = (await busy(writerA.process.child.pid!, 3_000)) ? 'inserting' : 'working';
          await p.kill(writerA);
          let readySeconds: number;
          [writerA2, readySeconds] = await startWriter('writer-a-restarted');
          // It gets partitions once the group has dropped the killed member (its session expired).
          await p.waitForInserts(writerA2, 0, 90_000);
          return { killed, readySeconds };
        });
        await step('ClickHouse server killed and restarted', async () => {
          const standIn = engine!.process!;
          const killed = (await busy(standIn.pid, 3_000)) ? 'inserting' : 'idle';
          standIn.child.kill('SIGKILL');
          await standIn.exited;
          engine = undefined;
          // Read once the engine is dead: whatever the writers insert from here on went through the new one.
          const [rowsOfA2, rowsOfB] = await Promise.all([rows(writerA2), rows(writerB)]);
          await pause(ENGINE_DOWN_MS);
          const restart = Date.now();
          await startEngine('clickhouse-restarted');
          const restartMs = Date.now() - restart;
          await Promise.all([p.waitForInserts(writerA2, rowsOfA2, 90_000), p.waitForInserts(writerB, rowsOfB, 90_000)]);
          return { killed, restartMs };
        });
        await flow(BETWEEN_FAULTS);
      } finally {
        // Also when a step failed: the clients must not go on sending into a pipeline being torn down.
        total = load.stop();
      }
      await loadDone;
      if (loadError) throw loadError;
      await p.waitUntilWritten(120_000);
      const writers = [writerA2, writerB];
      const retries = await Promise.all(writers.map((w) => p.metric(w, 'analytics_writer_insert_retries_total')));
      const deadLetters = await Promise.all(writers.map((w) => p.metric(w, 'analytics_writer_dead_letters_total')));
      expect(await Promise.all(writers.map((w) => p.stop(w)))).toEqual([0, 0]);
      await engine!.process!.stop(10_000);
      engine = undefined;

      const result = compareWithAcked(await readStored(engineDir, p.project.id), importer.acked, importer.attempted);
      recordScenario({
        ...result,
        scenario: 'two-writers',
        seconds: Math.round((Date.now() - started) / 1000),
        notes: {
          steps,
          insertRetriesPerWriter: retries,
          deadLettersPerWriter: deadLetters,
          ...importer.summary(),
          rawRowsAboveFinal: result.raw - result.stored,
        },
      });
      expect(result).toMatchObject({
        acked: total,
        lost: 0,
        duplicated: 0,
        unknown: 0,
        stored: total,
        distinctKeys: total,
      });
      // Both writers met the dead server (they had rows to insert while it was down), and refused nothing.
      expect(retries.every((r) => (r ?? 0) > 0)).toBe(true);
      expect(deadLetters).toEqual([0, 0]);
    },
    20 * 60_000,
  );
});
