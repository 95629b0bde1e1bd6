'use strict';
// Real single-node Kafka 4.2.0 (KRaft, broker+controller in one JVM) from Maven Central jars.
// No Docker: tests, benchmarks and `npm run kafka:start` all use this. Node builtins only.
// A three-node cluster (replication 3, min.insync.replicas 2) is in kafka-cluster.js: startKafkaCluster().
const fs = require('node:fs');
const os = require('node:os');
const net = require('node:net');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawn } = require('node:child_process');

const KAFKA_VERSION = '4.2.0';
// kafka_2.13 ships log4j-core but no SLF4J binding; without one every log line is dropped.
const LOG4J_VERSION = '2.25.3';
const DEPENDENCY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1';
const REPO_ROOT = path.resolve(__dirname, '..');
const DEFAULT_CACHE_DIR = path.join(REPO_ROOT, '.cache', `kafka-${KAFKA_VERSION}`);
const DEFAULT_STATE_DIR = path.join(REPO_ROOT, '.kafka');
const READY_LINE = 'Kafka Server started';
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
// 16 MB G1 regions, as the production brokers have (deploy/k8s kafka.yaml): a produce request is read
// into one heap buffer, and one of half a region or more is a humongous allocation, each one a GC
// trigger. With 4 MB regions the gateway's shared sends of 2–3 MB at saturation (up to 12 partitions ×
// 900 KB) still were, and G1's threads took 6.7 of the broker's 16 µs per event in the ingest bench;
// with 1 MB regions (a 512 MB heap's default) every request of 512 KB or more was
// (docs/benchmarks/2026-11-25-issue-21-second-pass.md and 2026-11-28-test-broker-g1-regions.md). 1 GB at
// most, so that a heap of 64 such regions can grow.
const JVM_FLAGS = ['-XX:+UseG1GC', '-XX:MaxGCPauseMillis=20', '-XX:G1HeapRegionSize=16m', '-Djava.awt.headless=true'];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const POM = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.tools</groupId><artifactId>kafka-runtime</artifactId><version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>${KAFKA_VERSION}</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j-impl</artifactId><version>${LOG4J_VERSION}</version></dependency>
  </dependencies>
</project>
`;

// Console only: the broker's stdout is already redirected to our log file. log4j's own shutdown hook
// would stop logging before Kafka's, losing the shutdown lines; console output needs no flushing.
const LOG4J2_PROPERTIES = `status = warn
shutdownHook = disable
appender.out.type = Console
appender.out.name = OUT
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.out.ref = OUT
logger.request.name = kafka.request.logger
logger.request.level = WARN
`;

/** Runs a command to completion, collecting stdout+stderr together for error messages. */
function run(cmd, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk) => {
      output += chunk;
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', (err) => reject(new Error(`cannot run ${cmd}: ${err.message}`)));
    child.on('close', (code) => resolve({ code, output }));
  });
}

function cachedClasspath(file) {
  if (!fs.existsSync(file)) return null;
  const classpath = fs.readFileSync(file, 'utf8').trim();
  // A half-deleted cache must trigger a re-resolve rather than a ClassNotFoundException later.
  return classpath.split(path.delimiter).every((jar) => fs.existsSync(jar)) ? classpath : null;
}

async function resolveKafkaClasspath({ cacheDir = DEFAULT_CACHE_DIR } = {}) {
  const marker = path.join(cacheDir, 'classpath.txt');
  const cached = cachedClasspath(marker);
  if (cached) return cached;

  const libs = path.join(cacheDir, 'libs');
  fs.mkdirSync(cacheDir, { recursive: true });
  fs.writeFileSync(path.join(cacheDir, 'pom.xml'), POM);
  const { code, output } = await run('mvn', [
    '-q',
    '-B',
    '-f',
    path.join(cacheDir, 'pom.xml'),
    `${DEPENDENCY_PLUGIN}:copy-dependencies`,
    `-DoutputDirectory=${libs}`,
    '-DincludeScope=runtime',
  ]);
  if (code !== 0) throw new Error(`Maven could not resolve kafka_2.13:${KAFKA_VERSION} (exit ${code}):\n${output}`);

  const jars = fs
    .readdirSync(libs)
    .filter((f) => f.endsWith('.jar'))
    .sort()
    .map((f) => path.join(libs, f));
  if (!jars.some((jar) => path.basename(jar) === `kafka_2.13-${KAFKA_VERSION}.jar`)) {
    throw new Error(`Maven finished but ${libs} has no kafka_2.13-${KAFKA_VERSION}.jar:\n${output}`);
  }
  const classpath = jars.join(path.delimiter);
  // Written last and atomically: its presence means the cache is complete.
  fs.writeFileSync(`${marker}.tmp`, classpath);
  fs.renameSync(`${marker}.tmp`, marker);
  return classpath;
}

function findFreePort(host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const server = net.createServer().unref();
    server.on('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Fails fast with a readable message instead of a BindException buried in the broker log. */
function assertPortFree(host, port) {
  return new Promise((resolve, reject) => {
    const server = net.createServer().unref();
    server.on('error', (err) =>
      reject(new Error(`cannot start Kafka: ${host}:${port} is not available (${err.code})`)),
    );
    server.listen(port, host, () => server.close(() => resolve()));
  });
}

function canConnect(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * A KRaft node's server.properties: one node of `voters` (default: a single node, id 1), replicated
 * `replication` times with `minInsync` in sync (a single broker: 1 and 1).
 */
function serverProperties({
  host,
  port,
  controllerPort,
  dataDir,
  id = 1,
  voters = `1@${host}:${controllerPort}`,
  replication = 1,
  minInsync = 1,
  sasl,
}) {
  const escape = (value) => value.replace(/\\/g, '\\\\');
  // A second client listener asking SCRAM (the user is formatted into the metadata log, formatStorage);
  // the brokers still talk to each other on PLAINTEXT.
  const saslListener = sasl ? `,SASL://${host}:${sasl.port}` : '';
  const saslLines = sasl
    ? [
        `sasl.enabled.mechanisms=${sasl.mechanism}`,
        `listener.name.sasl.${sasl.mechanism.toLowerCase()}.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;`,
      ]
    : [];
  return [
    'process.roles=broker,controller',
    `node.id=${id}`,
    // Static voters: every node lists the same quorum, and unlike controller.quorum.bootstrap.servers the
    // format step needs no --standalone and stores no voter endpoint (controller ports may change per run).
    `controller.quorum.voters=${voters}`,
    `listeners=PLAINTEXT://${host}:${port},CONTROLLER://${host}:${controllerPort}${saslListener}`,
    `advertised.listeners=PLAINTEXT://${host}:${port}${saslListener}`,
    `listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT${sasl ? ',SASL:SASL_PLAINTEXT' : ''}`,
    ...saslLines,
    'controller.listener.names=CONTROLLER',
    'inter.broker.listener.name=PLAINTEXT',
    `log.dirs=${escape(dataDir)}`,
    'num.partitions=1',
    `default.replication.factor=${replication}`,
    `min.insync.replicas=${minInsync}`,
    `offsets.topic.replication.factor=${replication}`,
    `transaction.state.log.replication.factor=${replication}`,
    `transaction.state.log.min.isr=${minInsync}`,
    `share.coordinator.state.topic.replication.factor=${replication}`,
    `share.coordinator.state.topic.min.isr=${minInsync}`,
    'group.initial.rebalance.delay.ms=0',
    'auto.create.topics.enable=false',
    '',
  ].join('\n');
}

const javaBin = () => (process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin', 'java') : 'java');

const newClusterId = () => crypto.randomBytes(16).toString('base64url'); // Kafka's Uuid text form

async function formatStorage({ classpath, propsFile, log4jFile, dataDir, clusterId = newClusterId(), scram }) {
  if (fs.existsSync(path.join(dataDir, 'meta.properties'))) return;
  const { code, output } = await run(javaBin(), [
    `-Dlog4j2.configurationFile=${log4jFile}`,
    '-cp',
    classpath,
    // `=` form: a base64url id may start with "-", which the argument parser would take for an option.
    'kafka.tools.StorageTool',
    'format',
    `--cluster-id=${clusterId}`,
    '--config',
    propsFile,
    // A SCRAM user in the metadata log from the start: `SCRAM-SHA-512=[name=…,password=…]`.
    ...(scram ? ['--add-scram', `${scram.mechanism}=[name=${scram.username},password=${scram.password}]`] : []),
  ]);
  if (code !== 0) throw new Error(`kafka-storage format failed (exit ${code}):\n${output}`);
}

function readFrom(file, offset = 0) {
  try {
    return fs.readFileSync(file).subarray(offset).toString('utf8');
  } catch {
    return '';
  }
}

/** Kafka binds its port before it can serve requests, so also wait for KafkaBroker's started line. */
async function waitUntilReady({ child, host, port, logFile, logOffset, timeoutMs = READY_TIMEOUT_MS }) {
  let failure = null;
  child.once('error', (err) => {
    failure = `could not spawn java: ${err.message}`;
  });
  child.once('exit', (code, signal) => {
    failure = `broker exited during startup (code ${code}, signal ${signal})`;
  });
  const deadline = Date.now() + timeoutMs;
  while (!failure && Date.now() < deadline) {
    if (readFrom(logFile, logOffset).includes(READY_LINE) && (await canConnect(host, port))) return;
    await sleep(150);
  }
  failure ??= `not ready after ${timeoutMs / 1000}s`;
  if (child.pid) await terminate(child.pid, child, 0);
  const tail = readFrom(logFile, logOffset).trimEnd().split('\n').slice(-30).join('\n');
  throw new Error(`Kafka ${KAFKA_VERSION} on ${host}:${port}: ${failure}. Last lines of ${logFile}:\n${tail}`);
}

function isAlive(pid, child) {
  if (child) return child.exitCode === null && child.signalCode === null;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** Guards against a recycled pid in a stale pidfile: only signal a JVM actually running kafka.Kafka. */
function isKafkaProcess(pid) {
  if (!isAlive(pid)) return false;
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('kafka.Kafka');
  } catch {
    return process.platform !== 'linux'; // no /proc to check: trust the pidfile
  }
}

async function waitForExit(pid, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid, child)) {
    if (Date.now() >= deadline) return false;
    await sleep(100);
  }
  return true;
}

function signal(pid, name) {
  try {
    process.kill(pid, name);
  } catch (err) {
    if (err.code !== 'ESRCH') throw err;
  }
}

async function terminate(pid, child, graceMs = STOP_TIMEOUT_MS) {
  if (!isAlive(pid, child)) return;
  signal(pid, 'SIGTERM'); // lets Kafka flush and close its logs cleanly
  if (await waitForExit(pid, child, graceMs)) return;
  signal(pid, 'SIGKILL');
  if (!(await waitForExit(pid, child, 5000))) throw new Error(`Kafka pid ${pid} survived SIGKILL`);
}

const pidFileOf = (stateDir) => path.join(stateDir, 'kafka.pid');

/** Pid of a live broker recorded in stateDir, or null (stale pidfiles are removed). */
function runningPid(stateDir) {
  const pid = Number(readFrom(pidFileOf(stateDir)).trim());
  if (Number.isInteger(pid) && pid > 0 && isKafkaProcess(pid)) return pid;
  fs.rmSync(pidFileOf(stateDir), { force: true });
  return null;
}

function removePidFile(stateDir, pid) {
  if (Number(readFrom(pidFileOf(stateDir)).trim()) === pid) fs.rmSync(pidFileOf(stateDir));
}

function launchBroker({ classpath, propsFile, log4jFile, logFile, logDir, stateDir, detached }) {
  const heap = (process.env.KAFKA_HEAP_OPTS ?? '-Xmx1g -Xms256m').split(/\s+/).filter(Boolean);
  const logFd = fs.openSync(logFile, 'a');
  const logOffset = fs.fstatSync(logFd).size; // the file is appended to across runs
  const child = spawn(
    javaBin(),
    [
      ...heap,
      ...JVM_FLAGS,
      `-Dlog4j2.configurationFile=${log4jFile}`,
      `-Dkafka.logs.dir=${logDir}`,
      '-cp',
      classpath,
      'kafka.Kafka',
      propsFile,
    ],
    { cwd: stateDir, detached, stdio: ['ignore', logFd, logFd] },
  );
  fs.closeSync(logFd);
  child.unref(); // never keep the caller alive just because a broker runs
  return { child, logOffset };
}

async function startKafka(options = {}) {
  const { port = 9092, host = '127.0.0.1', detached = false, cacheDir } = options;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`invalid Kafka port: ${port}`);
  await assertPortFree(host, port);
  const tempRoot = options.dataDir ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'kafka-'));
  const dataDir = path.resolve(options.dataDir ?? path.join(tempRoot, 'data'));
  const stateDir = path.resolve(options.stateDir ?? path.dirname(dataDir));
  const logDir = path.resolve(options.logDir ?? path.join(stateDir, 'logs'));
  const removeTemp = () => tempRoot && fs.rmSync(tempRoot, { recursive: true, force: true });
  const existing = runningPid(stateDir);
  if (existing) throw new Error(`Kafka is already running from ${stateDir} (pid ${existing})`);

  let child;
  // An attached broker must not outlive us (e.g. jest exiting without calling stop()); throwaway
  // temp-dir brokers are killed outright so their directory can be deleted synchronously.
  const killOnExit = () => {
    signal(child.pid, tempRoot ? 'SIGKILL' : 'SIGTERM');
    removeTemp();
  };
  try {
    const controllerPort = options.controllerPort ?? (await findFreePort(host));
    const classpath = await resolveKafkaClasspath({ cacheDir });
    for (const dir of [dataDir, stateDir, logDir]) fs.mkdirSync(dir, { recursive: true });
    const propsFile = path.join(stateDir, 'server.properties');
    const log4jFile = path.join(stateDir, 'log4j2.properties');
    const logFile = path.join(logDir, 'kafka.log');
    // options.scram: { port, mechanism: 'SCRAM-SHA-256' | 'SCRAM-SHA-512', username, password }
    const { scram } = options;
    fs.writeFileSync(propsFile, serverProperties({ host, port, controllerPort, dataDir, sasl: scram }));
    fs.writeFileSync(log4jFile, LOG4J2_PROPERTIES);
    await formatStorage({ classpath, propsFile, log4jFile, dataDir, scram });

    let logOffset;
    ({ child, logOffset } = launchBroker({ classpath, propsFile, log4jFile, logFile, logDir, stateDir, detached }));
    if (!detached && child.pid) process.on('exit', killOnExit);
    await waitUntilReady({ child, host, port, logFile, logOffset });
    fs.writeFileSync(pidFileOf(stateDir), `${child.pid}\n`);

    const stop = async () => {
      process.removeListener('exit', killOnExit);
      await terminate(child.pid, child);
      removePidFile(stateDir, child.pid);
      removeTemp();
    };
    return { brokers: `${host}:${port}`, pid: child.pid, controllerPort, dataDir, logFile, stop };
  } catch (err) {
    process.removeListener('exit', killOnExit);
    removeTemp();
    throw err;
  }
}

/** Stops the broker recorded in `<stateDir>/kafka.pid`; resolves false when none was running. */
async function stopKafka({ stateDir = DEFAULT_STATE_DIR } = {}) {
  const pid = runningPid(stateDir);
  if (!pid) return false;
  await terminate(pid);
  removePidFile(stateDir, pid);
  return true;
}

const cluster = () => require('./kafka-cluster'); // lazily: it requires this file

async function cli(command, ...args) {
  const stateDir = DEFAULT_STATE_DIR;
  const logFile = path.join(stateDir, 'logs', 'kafka.log');
  if (command === 'start' && args[0] === '--cluster') {
    const nodes = Number(args[1]);
    if (!Number.isInteger(nodes) || nodes < 3)
      throw new Error(`--cluster needs a node count of 3 or more, not ${args[1]}`);
    return cluster().cli('start', { nodes, stateDir: path.join(stateDir, 'cluster') });
  }
  if (command === 'start') {
    const pid = runningPid(stateDir);
    if (pid) return console.log(`Kafka ${KAFKA_VERSION} is already running (pid ${pid}, logs ${logFile})`);
    const port = Number(process.env.KAFKA_PORT ?? 9092);
    const broker = await startKafka({
      port,
      stateDir,
      dataDir: path.join(stateDir, 'data'),
      logDir: path.join(stateDir, 'logs'),
      detached: true,
    });
    return console.log(`Kafka ${KAFKA_VERSION} listening on ${broker.brokers} (pid ${broker.pid}, logs ${logFile})`);
  }
  if (command === 'install') {
    await resolveKafkaClasspath();
    return console.log(`Kafka ${KAFKA_VERSION} artifacts ready in ${DEFAULT_CACHE_DIR}`);
  }
  if (command === 'stop') {
    const stopped = await stopKafka({ stateDir });
    const nodes = await cluster().stopKafkaCluster({ stateDir: path.join(stateDir, 'cluster') });
    if (stopped || !nodes) console.log(stopped ? 'Kafka stopped' : 'Kafka is not running');
    if (nodes) console.log(`Kafka cluster stopped (${nodes} nodes)`);
    return;
  }
  console.error(
    [
      'usage: node scripts/kafka.js start|stop|install',
      '       node scripts/kafka.js start --cluster 3',
      '  start              one broker+controller on 127.0.0.1:$KAFKA_PORT (default 9092), state in .kafka/',
      '  start --cluster N  N broker+controller nodes (N >= 3) on ports $KAFKA_PORT.. (9092, 9093, 9094),',
      '                     controller quorum over all of them, replication 3, min.insync.replicas 2;',
      '                     state in .kafka/cluster/node-<id>/; KAFKA_BROKERS=127.0.0.1:9092,127.0.0.1:9093,…',
      '  stop               stops the broker and any cluster nodes started from here',
      '  install            fetches the Kafka jars from Maven Central into .cache/',
    ].join('\n'),
  );
  process.exitCode = 2;
}

module.exports = {
  resolveKafkaClasspath,
  startKafka,
  stopKafka,
  findFreePort,
  KAFKA_VERSION,
  startKafkaCluster: (options) => cluster().startKafkaCluster(options),
  stopKafkaCluster: (options) => cluster().stopKafkaCluster(options),
  // What kafka-cluster.js shares with the single broker's path: not an API for anyone else.
  internals: {
    LOG4J2_PROPERTIES,
    STOP_TIMEOUT_MS,
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
  },
};

if (require.main === module) {
  cli(...process.argv.slice(2)).catch((err) => {
    console.error(err.message);
    process.exitCode = 1;
  });
}
