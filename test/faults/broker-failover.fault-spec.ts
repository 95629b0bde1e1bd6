import { partitionFor } from '@analytics/events';
import { eventually, temporaryDirectory } from '@analytics/testing';
import { Admin, Kafka, logLevel } from 'kafkajs';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  compareWithAcked,
  eventBatch,
  ImportAttempt,
  Pipeline,
  readStored,
  RetryingImporter,
  runId,
} from '../multi-process/pipeline-harness';
import { recordScenario } from './fault-results';
import { PacedLoad } from './load-pacer';

interface ClusterNode {
  id: number;
  port: number;
  pid?: number;
  start(): Promise<unknown>;
  stop(): Promise<void>;
  kill(): Promise<void>;
}
interface Cluster {
  brokers: string;
  nodes: ClusterNode[];
  stop(): Promise<void>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const kafkaScript = require('../../scripts/kafka.js') as {
  startKafkaCluster(options: { brokers: number; dataDir: string }): Promise<Cluster>;
};

const TOTAL_EVENTS = Number(process.env.FAULTS_FAILOVER_EVENTS ?? 200_000);
const BATCH = 500;
const PARTITIONS = 4;
const EVENTS_PER_SECOND = 2_000;
/** How long a node stays down, while the clients keep sending. */
const DOWN_MS = 15_000;
/** After its leader moved, a partition may fail a send while the gateways' metadata catches up. */
const LEADER_MOVE_GRACE_MS = 3_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Production's Kafka topology on one host: three KRaft nodes, topics with replication 3 and
 * min.insync.replicas 2 (the platform creates them from KAFKA_REPLICATION_FACTOR=3). Two gateways and
 * a writer run as processes; six clients send batches of 500 events, each batch to one partition of
 * `events` (so that every request has exactly one partition). The leader of partition 0 is stopped
 * (SIGTERM: controlled shutdown) for 15 s and started again; once every replica is back in sync,
 * another node is killed (SIGKILL) for 15 s and started again. Clients retry 503s and timeouts.
 *
 * Every acknowledged event must be stored exactly once, and no request may fail unless its own
 * partition was in trouble (its leader down or moving, or a dead node still in its in-sync replicas):
 * a failure of another partition must not fail it.
 */
describe('Kafka cluster: brokers stopped and killed under load', () => {
  const dir = temporaryDirectory('fault-kafka-cluster');
  let cluster: Cluster | undefined;
  let pipeline: Pipeline | undefined;
  let watch: ClusterWatch | undefined;

  beforeAll(async () => {
    cluster = await kafkaScript.startKafkaCluster({ brokers: 3, dataDir: join(dir.path, 'cluster') });
    pipeline = await Pipeline.create({
      brokers: cluster.brokers,
      partitions: PARTITIONS,
      env: { KAFKA_REPLICATION_FACTOR: '3' },
    });
    watch = new ClusterWatch(cluster.brokers, pipeline.topic);
    await watch.start();
  }, 240_000);
  afterAll(async () => {
    await watch?.stop();
    await pipeline?.dispose();
    await cluster?.stop();
    dir.remove();
  }, 90_000);

  it('stores every acknowledged event exactly once, and fails no request for another partition', async () => {
    const p = pipeline!;
    const nodes = cluster!.nodes;
    const started = Date.now();
    const eventsPartitions = await eventually(() => {
      const states = watch!.states(p.topic);
      if (states.length !== PARTITIONS || states.some((s) => s.replicas !== 3 || s.isr.length !== 3)) {
        throw new Error(`events partitions not fully replicated yet: ${JSON.stringify(states)}`);
      }
      return states;
    });

    const [writer, ...gateways] = await Promise.all([
      p.start('writer', 'writer'),
      p.start('ingest', 'gateway-a'),
      p.start('ingest', 'gateway-b'),
    ]);

    // Users whose events land on each partition, so that a batch goes to one partition only.
    const users: string[][] = Array.from({ length: PARTITIONS }, () => []);
    for (let u = 0; users.some((list) => list.length < 50); u++) {
      const user = `user-${u}`;
      users[partitionFor(p.project.id, user, PARTITIONS)].push(user);
    }
    const run = runId();
    const partitionOfBatch = (from: number) => (from / BATCH) % PARTITIONS;
    const makeBatch = (from: number, count: number, baseTimeMs: number) => {
      const pool = users[partitionOfBatch(from)];
      return eventBatch(run, from, count, baseTimeMs).map((e, i) => ({
        ...e,
        properties: { ...e.properties, distinct_id: pool[(from + i) % pool.length] },
      }));
    };

    const timeline: { at: number; label: string }[] = [{ at: Date.now(), label: 'steady' }];
    const phaseAt = (t: number) => timeline.filter((m) => m.at <= t).pop()?.label ?? 'steady';
    const attempts: AttemptRecord[] = [];
    const onAttempt = (a: ImportAttempt) => {
      const partitions = [
        ...new Set(a.events.map((e) => partitionFor(p.project.id, e.properties.distinct_id, PARTITIONS))),
      ];
      attempts.push({
        batch: Number(a.events[0].properties.n) / BATCH,
        attempt: a.attempt,
        gateway: a.url.slice(a.url.lastIndexOf(':') + 1),
        partitions,
        status: a.status,
        error: a.error?.slice(0, 400),
        sentAt: a.sentAt,
        answeredAt: a.answeredAt,
        phase: phaseAt(a.sentAt),
      });
    };
    // The gateways give up on Kafka after 15 s (INGEST_KAFKA_SEND_TIMEOUT_MS) and answer 503; the client waits a bit longer than that.
    const importer = new RetryingImporter(p.project.basic, {
      maxBackoffMs: 2_000,
      giveUpAfterMs: 150_000,
      requestTimeoutMs: 20_000,
      onAttempt,
    });
    const load = new PacedLoad({
      importer,
      gateways: () => gateways.map((g) => g.url),
      runId: run,
      total: TOTAL_EVENTS,
      batchSize: BATCH,
      clients: 6,
      eventsPerSecond: EVENTS_PER_SECOND,
      makeBatch,
      // A reserve held back until the last node is back, so that events flow across both faults.
      initialGate: TOTAL_EVENTS * 0.9,
    });
    let loadError: unknown;
    const loadDone = load.done.catch((error: unknown) => void (loadError = error));
    const waitForProgress = (atProgress: number) =>
      eventually(
        () => {
          if (loadError) throw loadError;
          if (load.progress < atProgress) throw new Error(`load at ${load.progress}, waiting for ${atProgress}`);
        },
        { timeoutMs: 120_000, intervalMs: 50 },
      );

    const outages: Outage[] = [];
    const leaderOf = (partition: number) => watch!.states(p.topic).find((s) => s.partition === partition)!.leader;
    for (const how of ['SIGTERM', 'SIGKILL'] as const) {
      await waitForProgress(how === 'SIGTERM' ? 0.1 : 0.4);
      // The first victim leads partition 0; the second is another node, leading some partition.
      const victim =
        how === 'SIGTERM'
          ? nodes.find((n) => n.id === leaderOf(0))!
          : nodes.find(
              (n) => n.id !== outages[0].node && eventsPartitions.some((s) => leaderOf(s.partition) === n.id),
            )!;
      const leadersBefore = watch!.states(p.topic).map((s) => s.leader);
      const atProgress = Number(load.progress.toFixed(3));
      const down = Date.now();
      timeline.push({ at: down, label: `${how}-node-${victim.id}` });
      watch!.down.set(victim.id, down);
      const outOfIsr = watch!.waitUntilOutOfIsr(p.topic, victim.id);
      await (how === 'SIGTERM' ? victim.stop() : victim.kill());
      const stoppedMs = Date.now() - down;
      await pause(DOWN_MS);
      const restart = Date.now();
      timeline.push({ at: restart, label: `restart-node-${victim.id}` });
      await victim.start();
      watch!.down.delete(victim.id);
      const restartMs = Date.now() - restart;
      const inSyncMs = await watch!.waitUntilInSync(3, 120_000);
      timeline.push({ at: Date.now(), label: `in-sync-after-${how}` });
      outages.push({
        how,
        node: victim.id,
        leadersBefore: leadersBefore.join(','),
        leadersAfter: watch!
          .states(p.topic)
          .map((s) => s.leader)
          .join(','),
        atProgress,
        stopMs: stoppedMs,
        outOfIsrMs: ((await outOfIsr) ?? NaN) - down,
        downMs: restart - down,
        restartMs,
        inSyncMs,
      });
    }
    load.gate(TOTAL_EVENTS);

    await loadDone;
    if (loadError) throw new Error(`${String(loadError)}\n${p.outputs()}`);
    await p.waitUntilWritten(120_000);
    expect(await p.stop(writer)).toBe(0);
    const result = compareWithAcked(await readStored(p.chdbDir, p.project.id), importer.acked, importer.attempted);

    const nodeByPort = new Map(nodes.map((n) => [n.port, n.id]));
    const judged = attempts.map((a) => judge(a, watch!, nodeByPort));
    const failed = judged.filter((a) => a.status !== 200);
    const collateral = failed.filter((a) => a.collateral);
    const logFile = join(tmpdir(), `broker-failover-${run}.json`);
    writeFileSync(logFile, JSON.stringify({ timeline, outages, attempts: judged }, null, 1));
    const summary = failureSummary(failed);
    process.stdout.write(
      `broker-failover: ${attempts.length} attempts, ${failed.length} failed, ${collateral.length} for another partition's trouble; ` +
        `every attempt in ${logFile}\n${summary.map((s) => `  ${s}`).join('\n')}\n`,
    );
    recordScenario({
      ...result,
      scenario: 'broker-failover',
      seconds: Math.round((Date.now() - started) / 1000),
      notes: {
        outages,
        ...importer.summary(),
        failedAttempts: failed.length,
        failedForOtherPartitions: collateral.length,
        collateralExamples: collateral
          .slice(0, 5)
          .map(
            (a) =>
              `batch ${a.batch} p${a.partitions.join('+')} led by ${a.leaders.join('/')} ${a.phase} ${a.status}: ${a.error?.slice(0, 160)}`,
          ),
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
    expect(
      collateral.map(
        (a) =>
          `batch ${a.batch} partition ${a.partitions.join('+')} led by ${a.leaders.join('/')} (${a.phase}), status ${a.status}: ${a.error}`,
      ),
    ).toEqual([]);
  }, 300_000);
});

interface Outage {
  how: 'SIGTERM' | 'SIGKILL';
  node: number;
  leadersBefore: string;
  leadersAfter: string;
  atProgress: number;
  stopMs: number;
  /** From the stop until no partition of `events` listed the node in its in-sync replicas. */
  outOfIsrMs: number;
  downMs: number;
  restartMs: number;
  /** From the node serving again until every replica of every partition was back in sync. */
  inSyncMs: number;
}

interface AttemptRecord {
  batch: number;
  attempt: number;
  gateway: string;
  partitions: number[];
  status: number;
  error?: string;
  sentAt: number;
  answeredAt: number;
  phase: string;
}

interface JudgedAttempt extends AttemptRecord {
  /** Nodes the error names (by address). */
  failedOn: number[];
  /** Nodes that led its partition(s) during the attempt. */
  leaders: number[];
  /** Why its own partition(s) could fail it during the attempt, if they could. */
  ownTrouble: string[];
  /** Other partitions in trouble meanwhile. */
  othersInTrouble: string[];
  collateral: boolean;
}

/**
 * A failed attempt is collateral when it failed for another partition: its error names a node that led
 * none of its partitions (a send shared with another request's messages for that node), or its
 * partitions were healthy all along.
 */
function judge(a: AttemptRecord, watch: ClusterWatch, nodeByPort: Map<number, number>): JudgedAttempt {
  const window: [number, number] = [a.sentAt - 1_000, a.answeredAt];
  const failedOn = [
    ...new Set([...(a.error ?? '').matchAll(/\d+\.\d+\.\d+\.\d+:(\d+)/g)].map((m) => nodeByPort.get(Number(m[1])))),
  ].filter((n): n is number => n !== undefined);
  const leaders = [...new Set(a.partitions.flatMap((partition) => watch.leaders(partition, ...window)))].sort();
  const ownTrouble = a.partitions.flatMap((partition) =>
    watch.trouble(partition, ...window).map((why) => `p${partition}: ${why}`),
  );
  const others = Array.from({ length: PARTITIONS }, (_, i) => i).filter((i) => !a.partitions.includes(i));
  const othersInTrouble = others.flatMap((partition) =>
    watch.trouble(partition, ...window).map((why) => `p${partition}: ${why}`),
  );
  const failedElsewhere = failedOn.length > 0 && failedOn.every((n) => !leaders.includes(n));
  return {
    ...a,
    failedOn,
    leaders,
    ownTrouble,
    othersInTrouble,
    collateral: a.status !== 200 && (failedElsewhere || ownTrouble.length === 0),
  };
}

/** Failed attempts counted by phase, partition, status, collateral or not, and error text. */
function failureSummary(failed: JudgedAttempt[]): string[] {
  const counts = new Map<string, number>();
  for (const a of failed) {
    const error = (a.error ?? '').replace(/\d+/g, '#').slice(0, 200);
    const where = `led by ${a.leaders.join('/')}${a.failedOn.length ? `, failed on ${a.failedOn.join('/')}` : ''}`;
    const key = `${a.phase} p${a.partitions.join('+')} ${where} ${a.status} ${a.collateral ? 'OTHER-PARTITION' : 'own-partition'}: ${error}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([key, n]) => `${n} × ${key}`);
}

interface PartitionState {
  partition: number;
  leader: number;
  isr: number[];
  replicas: number;
}
interface Snapshot {
  at: number;
  /** Nodes down at that moment (stopped by the test and not yet serving again). */
  down: number[];
  topics: Map<string, PartitionState[]>;
}

/**
 * Polls the partitions' leaders and in-sync replicas every 200 ms from whichever node answers, and
 * knows which nodes the test has taken down, so a request's failure can be set against its partition's
 * state at the time.
 */
class ClusterWatch {
  readonly snapshots: Snapshot[] = [];
  /** Node id → when the test took it down. */
  readonly down = new Map<number, number>();
  private readonly admin: Admin;
  private running = false;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    brokers: string,
    private readonly eventsTopic: string,
  ) {
    const kafka = new Kafka({
      clientId: 'failover-watch',
      brokers: brokers.split(','),
      logLevel: logLevel.NOTHING,
      retry: { retries: 2, initialRetryTime: 100 },
    });
    this.admin = kafka.admin();
  }

  async start(): Promise<void> {
    await this.admin.connect();
    this.running = true;
    await this.poll();
    this.loop = (async () => {
      while (this.running) {
        await pause(200);
        await this.poll();
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    await this.admin.disconnect();
  }

  private async poll(): Promise<void> {
    try {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>(
        (_, reject) => (timer = setTimeout(() => reject(new Error('metadata timeout')), 3_000)),
      );
      // Every topic: the platform's and Kafka's own (__consumer_offsets, once the writer group exists).
      const { topics } = await Promise.race([this.admin.fetchTopicMetadata(), timeout]).finally(() =>
        clearTimeout(timer),
      );
      const map = new Map<string, PartitionState[]>();
      for (const t of topics) {
        const states = t.partitions.map((s) => ({
          partition: s.partitionId,
          leader: s.leader,
          isr: [...s.isr].sort(),
          replicas: s.replicas.length,
        }));
        map.set(
          t.name,
          states.sort((a, b) => a.partition - b.partition),
        );
      }
      this.snapshots.push({ at: Date.now(), down: [...this.down.keys()], topics: map });
    } catch {
      // A node is down or the metadata is moving: the next poll asks again, maybe another node.
    }
  }

  states(topic: string): PartitionState[] {
    return this.snapshots[this.snapshots.length - 1]?.topics.get(topic) ?? [];
  }

  /** Resolves the moment no partition of the events topic lists the node in sync (undefined after 60 s). */
  async waitUntilOutOfIsr(topic: string, node: number): Promise<number | undefined> {
    const since = Date.now();
    while (Date.now() - since < 60_000) {
      const last = this.snapshots[this.snapshots.length - 1];
      if (last && last.at > since && !(last.topics.get(topic) ?? []).some((s) => s.isr.includes(node))) return last.at;
      await pause(100);
    }
    return undefined;
  }

  /** Until every partition of every topic has `replicas` replicas in sync; resolves the time taken. */
  async waitUntilInSync(replicas: number, timeoutMs: number): Promise<number> {
    const since = Date.now();
    await eventually(
      () => {
        const last = this.snapshots[this.snapshots.length - 1];
        if (!last || last.at <= since) throw new Error('no metadata since the restart');
        const short = [...last.topics].flatMap(([topic, states]) =>
          states.filter((s) => s.isr.length < replicas).map((s) => `${topic}/${s.partition}`),
        );
        if (short.length) throw new Error(`replicas out of sync: ${short.join(', ')}`);
      },
      { timeoutMs, intervalMs: 100 },
    );
    return Date.now() - since;
  }

  /** The snapshots taken between `from` and `to`, and the last one before. */
  private between(from: number, to: number): Snapshot[] {
    const first = this.snapshots.findIndex((s) => s.at >= from);
    const start = first < 0 ? this.snapshots.length - 1 : Math.max(first - 1, 0);
    const end = this.snapshots.findIndex((s) => s.at > to);
    return this.snapshots.slice(Math.max(start, 0), end < 0 ? undefined : end);
  }

  /** The leaders this partition of the events topic had between `from` and `to`. */
  leaders(partition: number, from: number, to: number): number[] {
    const leaders = this.between(from, to).map(
      (s) => s.topics.get(this.eventsTopic)?.find((state) => state.partition === partition)?.leader ?? -1,
    );
    return [...new Set(leaders.filter((leader) => leader >= 0))];
  }

  /**
   * What could fail a send to this partition of the events topic between `from` and `to`: its leader
   * down, absent or just moved, a node that is down still in its in-sync replicas (acks=all waits for
   * it until the controller fences it), too few replicas in sync, or no metadata at all.
   */
  trouble(partition: number, from: number, to: number): string[] {
    const reasons = new Set<string>();
    let previousAt = from;
    let covered = false;
    for (const snapshot of this.between(from, to)) {
      covered = true;
      if (snapshot.at - previousAt > 2_000)
        reasons.add(`no metadata for ${((snapshot.at - previousAt) / 1000).toFixed(1)} s`);
      previousAt = Math.max(previousAt, snapshot.at);
      const state = snapshot.topics.get(this.eventsTopic)?.find((s) => s.partition === partition);
      if (!state) continue;
      if (state.leader < 0) reasons.add('no leader');
      else if (snapshot.down.includes(state.leader)) reasons.add(`leader ${state.leader} down`);
      const downInIsr = state.isr.filter((n) => snapshot.down.includes(n));
      if (downInIsr.length) reasons.add(`node ${downInIsr.join(',')} down but in sync`);
      if (state.isr.length < 2) reasons.add(`${state.isr.length} replica in sync`);
      const moved = this.leaderMoves(partition).find(
        (m) => m.at <= snapshot.at && m.at >= snapshot.at - LEADER_MOVE_GRACE_MS,
      );
      if (moved) reasons.add(`leader moved ${moved.change}`);
    }
    if (!covered || to - previousAt > 2_000) reasons.add('no metadata');
    return [...reasons];
  }

  private moves = { snapshots: -1, byPartition: new Map<number, { at: number; change: string }[]>() };

  /** When the partition's leader changed, as seen by the polls so far. */
  private leaderMoves(partition: number): { at: number; change: string }[] {
    if (this.moves.snapshots !== this.snapshots.length)
      this.moves = { snapshots: this.snapshots.length, byPartition: new Map() };
    const known = this.moves.byPartition.get(partition);
    if (known) return known;
    const moves: { at: number; change: string }[] = [];
    let previous: number | undefined;
    for (const snapshot of this.snapshots) {
      const leader = snapshot.topics.get(this.eventsTopic)?.find((s) => s.partition === partition)?.leader;
      if (leader === undefined) continue;
      if (previous !== undefined && leader !== previous)
        moves.push({ at: snapshot.at, change: `${previous}→${leader}` });
      previous = leader;
    }
    this.moves.byPartition.set(partition, moves);
    return moves;
  }
}
