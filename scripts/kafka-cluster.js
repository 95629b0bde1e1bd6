'use strict';
// A production-shaped Kafka cluster on one host: N KRaft nodes (N >= 3), each broker+controller in
// its own JVM on 127.0.0.1, the controller quorum over all of them, and the replication settings of
// deploy/k8s/base/engines/kafka.yaml (replication 3, min.insync.replicas 2). Each node can be stopped
// (SIGTERM, or killed with SIGKILL) and started again on the same ports and data directory, which is
// what the broker fail-over fault test does. Started by `node scripts/kafka.js start --cluster 3`.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { resolveKafkaClasspath, findFreePort, KAFKA_VERSION, internals } = require('./kafka');

const {
  LOG4J2_PROPERTIES,
  serverProperties,
  newClusterId,
  formatStorage,
  launchBroker,
  waitUntilReady,
  assertPortFree,
  terminate,
  waitForExit,
  signal,
  isAlive,
  runningPid,
  removePidFile,
  pidFileOf,
  readFrom,
} = internals;

const REPLICATION = 3;
const MIN_INSYNC = 2;
/** Three JVMs starting at once on two busy cores take longer than one broker does. */
const READY_TIMEOUT_MS = 120_000;

/** The cluster id an earlier run formatted into any node's data directory, if one did. */
function existingClusterId(dataDirs) {
  for (const dir of dataDirs) {
    const match = /^cluster\.id=(.+)$/m.exec(readFrom(path.join(dir, 'meta.properties')));
    if (match) return match[1].trim();
  }
  return null;
}

/** One node: its files live in `dir` (data/, logs/kafka.log, server.properties, kafka.pid). */
class ClusterNode {
  constructor({ id, host, port, controllerPort, dir, classpath, detached, exitSignal }) {
    Object.assign(this, { id, host, port, controllerPort, dir, classpath, detached });
    this.dataDir = path.join(dir, 'data');
    this.logDir = path.join(dir, 'logs');
    this.logFile = path.join(this.logDir, 'kafka.log');
    this.propsFile = path.join(dir, 'server.properties');
    this.log4jFile = path.join(dir, 'log4j2.properties');
    this.child = null;
    // An attached node must not outlive us (jest exiting without calling stop(), say).
    this.onExit = () => this.child && signal(this.child.pid, exitSignal);
  }

  get address() {
    return `${this.host}:${this.port}`;
  }

  get pid() {
    return this.child?.pid;
  }

  get running() {
    return Boolean(this.child && isAlive(this.child.pid, this.child));
  }

  /** Starts the JVM (again) on the same ports and data directory; resolves once it serves. */
  async start() {
    if (this.running) throw new Error(`Kafka node ${this.id} is already running (pid ${this.pid})`);
    await Promise.all([assertPortFree(this.host, this.port), assertPortFree(this.host, this.controllerPort)]);
    const { child, logOffset } = launchBroker({ ...this, stateDir: this.dir });
    this.child = child;
    if (!this.detached && child.pid) process.on('exit', this.onExit);
    try {
      await waitUntilReady({
        child,
        host: this.host,
        port: this.port,
        logFile: this.logFile,
        logOffset,
        timeoutMs: READY_TIMEOUT_MS,
      });
    } catch (err) {
      this.forget();
      throw new Error(`node ${this.id}: ${err.message}`);
    }
    fs.writeFileSync(pidFileOf(this.dir), `${child.pid}\n`);
    return this;
  }

  /** SIGTERM (controlled shutdown: leadership moves away first), SIGKILL if still alive after 15 s. */
  async stop() {
    if (!this.child) return;
    await terminate(this.child.pid, this.child);
    this.forget();
  }

  /** SIGKILL: the node vanishes mid-flight, as on a crashed machine; the others must notice. */
  async kill() {
    if (!this.child) return;
    signal(this.child.pid, 'SIGKILL');
    if (!(await waitForExit(this.child.pid, this.child, 5000)))
      throw new Error(`Kafka node ${this.id} survived SIGKILL`);
    this.forget();
  }

  forget() {
    process.removeListener('exit', this.onExit);
    if (this.child) removePidFile(this.dir, this.child.pid);
    this.child = null;
  }
}

/**
 * Starts `brokers` nodes (default 3) and resolves when every one serves. Options: dataDir (the
 * cluster's directory, node-<id>/ inside; a temporary one, removed by stop(), when absent), host,
 * ports (one per node; default free ports) or port (the first of consecutive ports), detached
 * (outlive this process, as the CLI does), cacheDir. Returns { brokers: 'host:port,…', nodes, stop() }.
 */
async function startKafkaCluster(options = {}) {
  const { brokers: count = 3, host = '127.0.0.1', detached = false, cacheDir } = options;
  if (!Number.isInteger(count) || count < REPLICATION)
    throw new Error(`a Kafka cluster needs ${REPLICATION} or more nodes, not ${count}`);
  const ports = options.ports ?? (options.port ? Array.from({ length: count }, (_, i) => options.port + i) : null);
  if (ports && (ports.length !== count || !ports.every((p) => Number.isInteger(p) && p > 0 && p < 65536))) {
    throw new Error(`invalid Kafka ports for ${count} nodes: ${ports}`);
  }
  const tempRoot = options.dataDir ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'kafka-cluster-'));
  const root = path.resolve(options.dataDir ?? tempRoot);
  const removeTemp = () => tempRoot && fs.rmSync(tempRoot, { recursive: true, force: true });
  // Throwaway clusters are killed outright at exit so that their directory can go at once.
  const exitSignal = tempRoot ? 'SIGKILL' : 'SIGTERM';
  if (tempRoot && !detached) process.on('exit', removeTemp);
  const ids = Array.from({ length: count }, (_, i) => i + 1);
  const dirs = ids.map((id) => path.join(root, `node-${id}`));
  const nodes = [];
  const stop = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    process.removeListener('exit', removeTemp);
    removeTemp();
  };
  try {
    for (const dir of dirs) {
      const pid = runningPid(dir);
      if (pid) throw new Error(`Kafka node in ${dir} is already running (pid ${pid})`);
    }
    const classpath = await resolveKafkaClasspath({ cacheDir });
    for (const [i, id] of ids.entries()) {
      const port = ports?.[i] ?? (await findFreePort(host));
      nodes.push(
        new ClusterNode({
          id,
          host,
          port,
          controllerPort: await findFreePort(host),
          dir: dirs[i],
          classpath,
          detached,
          exitSignal,
        }),
      );
    }
    const voters = nodes.map((n) => `${n.id}@${host}:${n.controllerPort}`).join(',');
    const clusterId = existingClusterId(nodes.map((n) => n.dataDir)) ?? newClusterId();
    for (const node of nodes) {
      for (const dir of [node.dataDir, node.logDir]) fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(
        node.propsFile,
        serverProperties({ ...node, voters, replication: REPLICATION, minInsync: MIN_INSYNC }),
      );
      fs.writeFileSync(node.log4jFile, LOG4J2_PROPERTIES);
    }
    await Promise.all(nodes.map((node) => formatStorage({ ...node, classpath, clusterId })));
    // Together: a node's broker waits for a quorum of controllers before it reports started.
    await Promise.all(nodes.map((node) => node.start()));
    return { brokers: nodes.map((n) => n.address).join(','), clusterId, dataDir: root, nodes, stop };
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
}

/** Stops the nodes recorded under `<stateDir>/node-*` /kafka.pid (all at once); resolves how many ran. */
async function stopKafkaCluster({ stateDir }) {
  if (!fs.existsSync(stateDir)) return 0;
  const dirs = fs
    .readdirSync(stateDir)
    .filter((d) => /^node-\d+$/.test(d))
    .map((d) => path.join(stateDir, d));
  const running = dirs.map((dir) => ({ dir, pid: runningPid(dir) })).filter((n) => n.pid);
  await Promise.all(
    running.map(async ({ dir, pid }) => {
      await terminate(pid);
      removePidFile(dir, pid);
    }),
  );
  return running.length;
}

async function cli(command, { nodes: count, stateDir }) {
  if (command !== 'start') throw new Error(`unknown cluster command ${command}`);
  const running = fs.existsSync(stateDir)
    ? fs.readdirSync(stateDir).filter((d) => runningPid(path.join(stateDir, d)))
    : [];
  if (running.length) return console.log(`a Kafka cluster is already running from ${stateDir} (${running.join(', ')})`);
  const port = Number(process.env.KAFKA_PORT ?? 9092);
  const cluster = await startKafkaCluster({ brokers: count, port, dataDir: stateDir, detached: true });
  console.log(
    `Kafka ${KAFKA_VERSION} cluster of ${count} nodes, replication ${REPLICATION}, min.insync.replicas ${MIN_INSYNC}`,
  );
  for (const node of cluster.nodes)
    console.log(`  node ${node.id}: ${node.address} (pid ${node.pid}, logs ${node.logFile})`);
  console.log(`KAFKA_BROKERS=${cluster.brokers}`);
}

module.exports = { startKafkaCluster, stopKafkaCluster, cli };
