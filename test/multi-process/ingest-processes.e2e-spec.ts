import { testKafkaBrokers } from '@analytics/testing';
import {
  compareWithAcked,
  eventBatch,
  Pipeline,
  readStored,
  RetryingImporter,
  runId,
  TestEvent,
} from './pipeline-harness';

/**
 * The deployed shape on one machine: two gateway processes and one writer process on the real
 * broker, several clients sending to both gateways at once, some batches sent to both. Every
 * acknowledged event must end up stored exactly once.
 */
describe('gateways and writer as separate processes', () => {
  let pipeline: Pipeline;

  beforeAll(async () => {
    pipeline = await Pipeline.create({ brokers: testKafkaBrokers() });
  }, 60_000);
  afterAll(() => pipeline?.dispose(), 60_000);

  it('stores every acknowledged event exactly once, duplicates across gateways included', async () => {
    const [writer, gatewayA, gatewayB] = await Promise.all([
      pipeline.start('writer', 'writer'),
      pipeline.start('ingest', 'gateway-a'),
      pipeline.start('ingest', 'gateway-b'),
    ]);
    const gateways = [gatewayA.url, gatewayB.url];
    const importer = new RetryingImporter(pipeline.project.basic);
    const run = runId();
    const now = Date.now();
    const clients = 6;
    const batchesPerClient = 8;
    const batchSize = 500;

    // Each client sends its own batches alternately to both gateways, then sends two of them again
    // through the other gateway (a client retrying after a lost answer) and one half-batch overlap.
    const client = async (c: number) => {
      const sent: TestEvent[][] = [];
      for (let b = 0; b < batchesPerClient; b++) {
        const events = eventBatch(`${run}-c${c}`, b * batchSize, batchSize, now);
        sent.push(events);
        expect((await importer.send([gateways[(c + b) % 2]], events)).status).toBe(200);
      }
      for (const b of [1, 5]) expect((await importer.send([gateways[(c + b + 1) % 2]], sent[b])).status).toBe(200);
      expect((await importer.send([gateways[c % 2]], [...sent[2].slice(250), ...sent[3].slice(0, 250)])).status).toBe(
        200,
      );
    };
    await Promise.all(Array.from({ length: clients }, (_, c) => client(c)));
    expect(importer.acked.size).toBe(clients * batchesPerClient * batchSize);
    expect(importer.retries).toBe(0);

    await pipeline.waitUntilWritten(30_000);
    expect(await pipeline.stop(writer)).toBe(0);
    const result = compareWithAcked(
      await readStored(pipeline.chdbDir, pipeline.project.id),
      importer.acked,
      importer.attempted,
    );
    expect(result).toMatchObject({
      lost: 0,
      duplicated: 0,
      unknown: 0,
      stored: importer.acked.size,
      distinctKeys: importer.acked.size,
    });
    // Physically, the table holds at most one row per event sent (the resends, until merges collapse
    // them; FINAL reads collapse them already): a writer retry never inserts a batch twice.
    const sent = clients * (batchesPerClient + 3) * batchSize;
    expect(result.raw).toBeLessThanOrEqual(sent);
  });
});
