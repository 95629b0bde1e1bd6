/**
 * The deployment as a whole: the image (Dockerfile, entrypoint run for real against a stub node) and
 * every Kustomize overlay, rendered and validated against the Kubernetes schemas, the operators'
 * required fields and the platform's own configuration (settings, topics, consumer group, cluster).
 * No Docker engine or cluster is needed. `npm run test:deploy` runs this file alone.
 */
import { describeEnvironment, environmentVariableNames, loadConfig, SERVICE_NAMES, ServiceName } from '@analytics/config';
import { NON_PUBLIC_NETWORKS } from '@analytics/outbound';
import { EVENTS_WRITER_GROUP } from '@analytics/event-writer';
import { CONSUMER_GROUPS, groupId, topicName, topicSpecs } from '@analytics/kafka';
import { ROLE_MATRIX } from '@analytics/auth';
import { engineNeeds, PUBLIC_HOSTS, publicHostsOf } from '@analytics/service-map';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { applicationDatabase, objectStoreProblems, scheduledBackupProblems } from './backups';
import { clientListener, K8S, KAFKA_CLIENT_SETTINGS, operatorSecrets, OVERLAYS, podConfig, render, ROOT } from './cluster';
import { assignments, parseDockerfile, Stage } from './dockerfile';
import { kustomize, parseImage } from './kustomize';
import { appContainer, containerEnvironment, decodeSecret, esmPackage, lockdownProblems, Manifest, Rendered, route, selects, SettingSource } from './manifests';

type Validatable = new (data: any) => { validate(): void };
type Models = Record<string, Validatable>;

const MIGRATE = 'migrate';
const WORKLOADS = [...SERVICE_NAMES, MIGRATE];
/** The Node flags deploy/docker/entrypoint.sh gives a service (young generation and pretenuring of the gateway and the standalone, the gateway's old generation too, young and old generations of the writer). */
const STANDALONE_FLAGS = ['--max-semi-space-size=16', '--no-allocation-site-pretenuring'];
const NODE_FLAGS: Record<string, string[]> = { ingest: [...STANDALONE_FLAGS, '--heap-growing-percent=50'], standalone: STANDALONE_FLAGS, writer: ['--max-semi-space-size=4', '--heap-growing-percent=50'] };
/** glibc's mmap threshold the entrypoint holds for a service (the gateway's freed buffers go back to the system). */
const MMAP_THRESHOLD: Record<string, string> = { ingest: '131072' };
const KUBECTL_INSTALLED = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;

/** Settings a workload does not receive, and why. Everything else must reach every workload. */
const NOT_WIRED: { applies: (name: string, workload: string) => boolean; reason: string }[] = [
  { applies: (name) => name === 'DATA_DIR', reason: 'only the embedded engines (chdb:, pglite:) keep files; the cluster image has none and a read-only root' },
  { applies: (name, workload) => name === 'SERVICES' && workload === MIGRATE, reason: "the migrate app applies both engines' migrations whatever SERVICES says" },
  {
    applies: (name, workload) => name === 'CLICKHOUSE_URL' && workload !== MIGRATE && !needsEngine(workload as ServiceName, 'clickhouse'),
    reason: 'a service that opens no ClickHouse (engineNeeds) is given no ClickHouse credentials',
  },
  {
    applies: (name, workload) => KAFKA_CLIENT_SETTINGS.includes(name) && (workload === MIGRATE || !needsEngine(workload as ServiceName, 'kafka')),
    reason: 'Kafka credentials and TLS go only to the services with a KafkaUser (engines/kafka-users.yaml)',
  },
  {
    applies: (name, workload) => name.startsWith('BOOTSTRAP_') && workload !== MIGRATE,
    reason: 'a first project and owner are created once, like migrations: only the migration Job gets them',
  },
];
/** Keys of analytics-secrets that are no setting: the engines' side of a credential. */
const ENGINE_SECRET_KEYS = ['CLICKHOUSE_PASSWORD'];

function needsEngine(service: ServiceName, engine: 'clickhouse' | 'postgres' | 'kafka'): boolean {
  const withEverything = loadConfig({ KAFKA_BROKERS: 'kafka:9092', CLICKHOUSE_URL: 'http://clickhouse:8123', DATABASE_URL: 'postgres://postgres/db' });
  return engineNeeds(withEverything, [service])[engine] === true;
}

/** Secret settings as config marks them (@Secret): their values are masked by describeEnvironment. */
const SECRET_SETTINGS = (() => {
  const described = describeEnvironment(Object.fromEntries(environmentVariableNames().map((name) => [name, 'probe-value'])));
  return environmentVariableNames().filter((name) => described[name] !== 'probe-value');
})();

function deploymentOf(rendered: Rendered, service: string): Manifest {
  return rendered.get('Deployment', `analytics-${service}`);
}

function workloadOf(rendered: Rendered, name: string): Manifest {
  return name === MIGRATE ? rendered.one('Job') : deploymentOf(rendered, name);
}

function configMapData(rendered: Rendered): Record<string, string> {
  return rendered.get('ConfigMap', 'analytics-config').data ?? {};
}

/**
 * The value a Secret key holds once the cluster runs: rendered Secrets; those the operators write
 * (CloudNativePG's for its Cluster, Strimzi's for its CA and KafkaUsers); and, for an overlay that
 * ships no analytics-secrets (prod), the keys of dev's, the documented contract of the Secret an
 * operator creates.
 */
function secretValues(rendered: Rendered): (name: string, key: string) => string | undefined {
  const generated = operatorSecrets(rendered);
  return (name, key) => {
    const secret = rendered.find('Secret', name) ?? (name === 'analytics-secrets' ? render('dev').find('Secret', name) : undefined);
    if (secret) return decodeSecret(secret)[key];
    return generated[name]?.[key];
  };
}

function environmentOf(rendered: Rendered, workload: string) {
  return containerEnvironment(rendered, appContainer(workloadOf(rendered, workload)), secretValues(rendered));
}

// ---------------------------------------------------------------------------------------------
describe('the image', () => {
  const dockerfile = parseDockerfile(readFileSync(join(ROOT, 'deploy/docker/Dockerfile'), 'utf8'));
  const runtime = dockerfile.stages[dockerfile.stages.length - 1];
  const build = dockerfile.stages[0];
  const runs = (stage: Stage) => stage.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.arguments);
  const last = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword).pop();

  it('is built in stages from a pinned Node 24 base: the release the tests run on, never "latest"', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
    const testedNode = lock.packages['node_modules/node'].version;
    expect(dockerfile.stages.length).toBeGreaterThanOrEqual(2);
    const stageNames = new Set(dockerfile.stages.map((s) => s.name));
    for (const stage of dockerfile.stages.filter((s) => !stageNames.has(s.image))) {
      const { name, tag, digest } = parseImage(stage.image);
      expect(name).toBe('node');
      expect(tag).not.toBe('latest');
      // An exact version (24.x.y), optionally pinned further by digest.
      expect(tag).toMatch(new RegExp(`^${testedNode.replace(/\./g, '\\.')}-[a-z]+-slim$`));
      if (digest) expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    }
  });

  it('builds with npm ci and npm run build, and installs no dev dependencies at run time, but the optional native binaries', () => {
    expect(runs(build).some((r) => /\bnpm ci\b/.test(r))).toBe(true);
    expect(runs(build).some((r) => /\bnpm run build\b/.test(r))).toBe(true);
    const installs = runs(runtime).flatMap((r) => r.split(/;|&&|\bthen\b|\belse\b/)).filter((c) => /\bnpm (ci|install|i)\b/.test(c));
    expect(installs.length).toBeGreaterThan(0);
    for (const install of installs) expect(install).toMatch(/--omit=dev/);
    // Optional packages stay: the prebuilt native binaries (the gateway's CRC32C) are optional packages.
    for (const install of installs) expect(install).not.toMatch(/--omit[= ]optional|--no-optional/);
    expect(runtime.instructions.some((i) => i.keyword === 'ARG' && assignments(i).some(([name, value]) => name === 'EMBEDDED' && value === 'false'))).toBe(true);
    // The embedded engines (the package's own optional dependencies) are removed unless EMBEDDED=true.
    const removal = runs(runtime).join(' ').match(/if \[ "\$EMBEDDED" != "true" \]; then rm -rf ([^;]+);/)?.[1].trim().split(/\s+/) ?? [];
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { optionalDependencies: Record<string, string> };
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { optionalDependencies?: Record<string, string> }> };
    const removed = (name: string) => removal.some((path) => `node_modules/${name}` === path || `node_modules/${name}`.startsWith(`${path}/`));
    for (const engine of Object.keys(pkg.optionalDependencies)) {
      expect({ engine, removed: removed(engine) }).toEqual({ engine, removed: true });
      for (const binary of Object.keys(lock.packages[`node_modules/${engine}`].optionalDependencies ?? {})) expect({ binary, removed: removed(binary) }).toEqual({ binary, removed: true });
    }
    // The native CRC32C the gateway was measured with (docs/benchmarks.md) stays, for the image's platform.
    expect(lock.packages['node_modules/@node-rs/crc32-linux-x64-gnu']).toBeDefined();
    for (const kept of ['@node-rs/crc32', '@node-rs/crc32-linux-x64-gnu', '@node-rs/crc32-linux-arm64-gnu']) expect({ kept, removed: removed(kept) }).toEqual({ kept, removed: false });
    // Nothing of the build stage's node_modules (dev dependencies) is copied over: only dist/.
    const copiedFromBuild = runtime.instructions.filter((i) => i.keyword === 'COPY' && /--from=/.test(i.arguments));
    expect(copiedFromBuild.map((i) => i.arguments)).toEqual([`--from=${build.name} /app/dist ./dist`]);
  });

  it('runs as a non-root numeric user, the one the pods declare', () => {
    const user = last(runtime, 'USER')?.arguments.split(':')[0];
    expect(user).toMatch(/^[1-9]\d*$/);
    for (const overlay of OVERLAYS) {
      for (const workload of render(overlay).workloads()) {
        expect(render(overlay).podsOf(workload).spec.securityContext.runAsUser).toBe(Number(user));
      }
    }
  });

  it('holds no secret in ENV or ARG', () => {
    const declared = dockerfile.stages.flatMap((s) => s.instructions).filter((i) => i.keyword === 'ENV' || i.keyword === 'ARG');
    const pairs = [...dockerfile.globalArguments.entries(), ...declared.flatMap(assignments)];
    for (const [name, value] of pairs) {
      if (/PASSWORD|SECRET|TOKEN|CREDENTIAL|API_?KEY/i.test(name)) expect({ name, value: value ?? '' }).toEqual({ name, value: '' });
      expect({ name, value }).not.toEqual({ name, value: expect.stringMatching(/:\/\/[^/\s:@]+:[^/\s@]+@/) });
    }
  });

  it('has a HEALTHCHECK on /healthz for plain Docker (Kubernetes uses its probes), and exposes the pods’ port', () => {
    expect(last(runtime, 'HEALTHCHECK')?.arguments).toMatch(/\/healthz/);
    expect(last(runtime, 'EXPOSE')?.arguments).toBe(configMapData(render(OVERLAYS[0])).PORT);
  });

  it('starts through the entrypoint script, which it copies in', () => {
    const entrypoint = JSON.parse(last(runtime, 'ENTRYPOINT')!.arguments) as string[];
    expect(entrypoint).toEqual(['/bin/sh', '/app/entrypoint.sh']);
    expect(runtime.instructions.some((i) => i.keyword === 'COPY' && i.arguments === 'deploy/docker/entrypoint.sh ./entrypoint.sh')).toBe(true);
    expect(last(runtime, 'WORKDIR')?.arguments).toBe('/app');
  });

  it('keeps the build context small: .dockerignore leaves out local state, dependencies and test artefacts', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim());
    for (const entry of ['node_modules', 'dist', 'data', '.kafka', '.cache', 'tmp', 'coverage', '.git', '*.log']) expect(ignored).toContain(entry);
    // What the build copies must stay in the context.
    for (const needed of ['apps', 'libs', 'web', '.swcrc', 'package.json', 'package-lock.json', 'deploy/docker', 'deploy']) expect(ignored).not.toContain(needed);
  });
});

describe('the entrypoint (run with sh against a stub node)', () => {
  const script = join(ROOT, 'deploy/docker/entrypoint.sh');
  let sandbox: string;
  let appHome: string;
  let stubPath: string;

  beforeAll(() => {
    sandbox = mkdtempSync(join(tmpdir(), 'entrypoint-'));
    stubPath = join(sandbox, 'bin');
    appHome = join(sandbox, 'app');
    mkdirSync(stubPath);
    // Prints its pid, glibc's mmap threshold variable and its arguments: the same pid as the shell proves the shell exec'd it.
    writeFileSync(join(stubPath, 'node'), '#!/bin/sh\necho "pid=$$"\necho "mmap=${MALLOC_MMAP_THRESHOLD_-unset}"\nfor argument in "$@"; do echo "$argument"; done\n');
    chmodSync(join(stubPath, 'node'), 0o755);
    for (const service of [...WORKLOADS, 'standalone', 'admin']) {
      mkdirSync(join(appHome, 'dist/apps', service, 'src'), { recursive: true });
      writeFileSync(join(appHome, 'dist/apps', service, 'src/main.js'), '');
    }
  });
  afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

  const run = (args: string[], env: Record<string, string> = {}) => {
    const result = spawnSync('sh', [script, ...args], {
      encoding: 'utf8',
      env: { PATH: `${stubPath}:${process.env.PATH}`, APP_HOME: appHome, ...env },
    });
    return { ...result, lines: result.stdout.trim().split('\n') };
  };

  it.each([...WORKLOADS, 'standalone'])('execs node dist/apps/%s/src/main.js in place of the shell, with its Node flags and environment, passing further arguments on', (service) => {
    const { status, lines, pid, stderr } = run([service, '--extra']);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const nodeFlags = NODE_FLAGS[service as string] ?? [];
    expect(lines).toEqual([`pid=${pid}`, `mmap=${MMAP_THRESHOLD[service as string] ?? 'unset'}`, ...nodeFlags, join(appHome, `dist/apps/${service}/src/main.js`), '--extra']);
  });

  it("keeps the operator's own mmap threshold for the gateway", () => {
    expect(run(['ingest'], { MALLOC_MMAP_THRESHOLD_: '262144' }).lines[1]).toBe('mmap=262144');
  });

  it.each(Object.entries(NODE_FLAGS))("gives the %s service flags the project's Node accepts (a V8 flag can disappear in a Node upgrade)", (_, flags) => {
    const result = spawnSync(process.execPath, [...flags, '-e', '0'], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('takes the service from $SERVICE when no argument names it', () => {
    expect(run([], { SERVICE: 'query' }).lines[2]).toBe(join(appHome, 'dist/apps/query/src/main.js'));
  });

  it('refuses an unknown service with exit code 64, naming the known ones', () => {
    const { status, stderr, stdout } = run(['warp']);
    expect(status).toBe(64);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/Unknown service "warp"/);
    for (const service of WORKLOADS) expect(stderr).toContain(service);
  });

  it('refuses to start with no service named (exit 64)', () => {
    expect(run([]).status).toBe(64);
  });

  it('says so when a known service is not in the image (exit 66)', () => {
    const { status, stderr } = run(['compliance'], { APP_HOME: join(sandbox, 'empty') });
    expect(status).toBe(66);
    expect(stderr).toMatch(/"compliance" is not in this image/);
  });

  it('knows exactly the apps of the repository, and every service of the map is one', () => {
    const known = /^known='([^']*)'/m.exec(readFileSync(script, 'utf8'))![1].split(' ').sort();
    expect(known).toEqual(readdirSync(join(ROOT, 'apps')).sort());
    expect(known).toEqual(expect.arrayContaining([...SERVICE_NAMES]));
  });

  it('knows every service a Deployment runs', () => {
    for (const overlay of OVERLAYS) {
      for (const workload of render(overlay).workloads()) {
        const [service] = appContainer(workload).args as string[];
        expect(run([service]).status).toBe(0);
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------
describe.each(OVERLAYS)('overlay %s', (overlay) => {
  const rendered = () => render(overlay);

  // Without kubectl this shows as skipped: the renderer's output is then what the other checks see.
  (KUBECTL_INSTALLED ? it : it.skip)('renders exactly what kubectl kustomize renders', () => {
    const kubectl = spawnSync('kubectl', ['kustomize', join(K8S, 'overlays', overlay)], { encoding: 'utf8' });
    expect(kubectl.stderr).toBe('');
    const key = (o: Manifest) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
    const theirs = new Map(parseAllDocuments(kubectl.stdout).map((d) => d.toJS() as Manifest).map((o) => [key(o), o]));
    const ours = new Map(rendered().objects.map((o) => [key(o), o]));
    expect([...ours.keys()].sort()).toEqual([...theirs.keys()].sort());
    for (const [id, object] of ours) expect({ id, object }).toEqual({ id, object: theirs.get(id) });
  });

  it('validates every Kubernetes and KEDA object against its schema, and checks every operator resource', () => {
    const core = esmPackage<Models>('kubernetes-models', 'v1');
    const apps = esmPackage<Models>('kubernetes-models', 'apps/v1');
    const batch = esmPackage<Models>('kubernetes-models', 'batch/v1');
    const autoscaling = esmPackage<Models>('kubernetes-models', 'autoscaling/v2');
    const policy = esmPackage<Models>('kubernetes-models', 'policy/v1');
    const networking = esmPackage<Models>('kubernetes-models', 'networking.k8s.io/v1');
    const keda = esmPackage<Models>('@kubernetes-models/keda', 'keda.sh/v1alpha1');
    const schemas: Record<string, Validatable> = {
      'v1/Namespace': core.Namespace,
      'v1/ConfigMap': core.ConfigMap,
      'v1/Secret': core.Secret,
      'v1/Service': core.Service,
      'apps/v1/Deployment': apps.Deployment,
      'batch/v1/Job': batch.Job,
      'batch/v1/CronJob': batch.CronJob,
      'autoscaling/v2/HorizontalPodAutoscaler': autoscaling.HorizontalPodAutoscaler,
      'policy/v1/PodDisruptionBudget': policy.PodDisruptionBudget,
      'networking.k8s.io/v1/Ingress': networking.Ingress,
      'networking.k8s.io/v1/NetworkPolicy': networking.NetworkPolicy,
      'keda.sh/v1alpha1/ScaledObject': keda.ScaledObject,
      'keda.sh/v1alpha1/TriggerAuthentication': keda.TriggerAuthentication,
    };
    const operatorChecks: Record<string, (o: Manifest, all: Rendered) => string[]> = {
      'kafka.strimzi.io/v1/Kafka': kafkaProblems,
      'kafka.strimzi.io/v1/KafkaNodePool': nodePoolProblems,
      'kafka.strimzi.io/v1/KafkaTopic': topicProblems,
      'clickhouse.altinity.com/v1/ClickHouseInstallation': clickHouseProblems,
      'clickhouse-keeper.altinity.com/v1/ClickHouseKeeperInstallation': keeperProblems,
      'postgresql.cnpg.io/v1/Cluster': postgresProblems,
      'postgresql.cnpg.io/v1/ScheduledBackup': scheduledBackupProblems,
      'barmancloud.cnpg.io/v1/ObjectStore': objectStoreProblems,
      'kafka.strimzi.io/v1/KafkaUser': kafkaUserProblems,
      'postgresql.cnpg.io/v1/Pooler': poolerProblems,
    };
    for (const object of rendered().objects) {
      const type = `${object.apiVersion}/${object.kind}`;
      const id = `${type} ${object.metadata.name}`;
      if (schemas[type]) {
        expect(() => new schemas[type](object).validate()).not.toThrow();
      } else if (operatorChecks[type]) {
        expect({ id, problems: operatorChecks[type](object, rendered()) }).toEqual({ id, problems: [] });
      } else {
        throw new Error(`${id}: no schema or check for this kind`);
      }
      if (object.kind !== 'Namespace') expect({ id, namespace: object.metadata.namespace }).toEqual({ id, namespace: 'analytics' });
    }
  });

  it('runs every service as a Deployment with a Service, probes, an autoscaler and a disruption budget', () => {
    for (const service of SERVICE_NAMES) {
      const deployment = deploymentOf(rendered(), service);
      const pods = rendered().podsOf(deployment);
      const container = appContainer(deployment);
      expect(container.args).toEqual([service]);
      expect(selects(deployment.spec.selector, pods.labels)).toBe(true);
      // HPA or KEDA own the replica count; a fixed one would fight them on every apply.
      expect(deployment.spec.replicas).toBeUndefined();

      const ports = container.ports as { name: string; containerPort: number }[];
      const isContainerPort = (port: string | number) => ports.some((p) => p.name === port || p.containerPort === port);
      expect(container.readinessProbe.httpGet.path).toBe('/readyz');
      // Health is on the management port (MANAGEMENT_PORT), never the API's.
      for (const probe of [container.readinessProbe, container.livenessProbe, container.startupProbe]) expect(probe.httpGet.port).toBe('management');
      expect(container.livenessProbe.httpGet.path).toBe('/healthz');
      expect(container.startupProbe.httpGet.path).toBe('/healthz');
      for (const probe of [container.readinessProbe, container.livenessProbe, container.startupProbe]) expect(isContainerPort(probe.httpGet.port)).toBe(true);

      const services = rendered().all('Service').filter((s) => selects({ matchLabels: s.spec.selector }, pods.labels));
      expect(services.map((s) => s.metadata.name)).toEqual([`analytics-${service}`]);

      const budgets = rendered().all('PodDisruptionBudget').filter((p) => selects(p.spec.selector, pods.labels));
      expect(budgets).toHaveLength(1);

      const autoscalers = [...rendered().all('HorizontalPodAutoscaler'), ...rendered().all('ScaledObject')].filter(
        (a) => a.spec.scaleTargetRef.name === deployment.metadata.name,
      );
      expect(autoscalers.map((a) => a.kind)).toEqual([service === 'writer' ? 'ScaledObject' : 'HorizontalPodAutoscaler']);
    }
  });

  it('selects existing pods and ports from every Service, budget and autoscaler', () => {
    for (const service of rendered().all('Service')) {
      const [deployment, ...others] = rendered().deploymentsSelectedBy({ matchLabels: service.spec.selector });
      expect({ service: service.metadata.name, others }).toEqual({ service: service.metadata.name, others: [] });
      const container = appContainer(deployment);
      for (const port of service.spec.ports) {
        expect(container.ports.some((p: any) => p.name === port.targetPort || p.containerPort === port.targetPort)).toBe(true);
      }
    }
    for (const budget of rendered().all('PodDisruptionBudget')) expect(rendered().deploymentsSelectedBy(budget.spec.selector)).toHaveLength(1);
    for (const autoscaler of rendered().all('HorizontalPodAutoscaler')) {
      expect(autoscaler.spec.scaleTargetRef).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment' });
      expect(rendered().find('Deployment', autoscaler.spec.scaleTargetRef.name)).toBeDefined();
      expect(autoscaler.spec.minReplicas).toBeLessThanOrEqual(autoscaler.spec.maxReplicas);
      expect(autoscaler.spec.metrics).toContainEqual({ type: 'Resource', resource: { name: 'cpu', target: expect.objectContaining({ type: 'Utilization' }) } });
    }
  });

  it('scales the writer on the consumer lag of each of its groups, never beyond their topics’ partitions', () => {
    const scaler = rendered().one('ScaledObject');
    const writer = deploymentOf(rendered(), 'writer');
    expect(scaler.spec.scaleTargetRef.name).toBe(writer.metadata.name);
    const settings = podConfig(environmentOf(rendered(), 'writer').values).kafka!;
    const kafka = rendered().one('Kafka');
    const listener = clientListener(kafka);
    // Every group a writer runs (libs/kafka's CONSUMER_GROUPS), with the topic it consumes.
    const consumed = { eventsWriter: 'events', profilesWriter: 'profiles', identitiesWriter: 'identities' } as const;
    expect(Object.keys(consumed).sort()).toEqual(Object.keys(CONSUMER_GROUPS).sort());
    expect(groupId(settings, 'eventsWriter')).toBe(`${settings.topicPrefix}${EVENTS_WRITER_GROUP}`);
    const expected = Object.entries(consumed).map(([group, topic]) => ({ group: groupId(settings, group as keyof typeof consumed), topic: topicName(settings, topic) }));
    const triggers = scaler.spec.triggers as any[];
    expect(triggers.map((t) => ({ group: t.metadata.consumerGroup, topic: t.metadata.topic }))).toEqual(expected);
    const authentication = rendered().get('TriggerAuthentication', triggers[0].authenticationRef.name);
    for (const trigger of triggers) {
      expect(trigger.type).toBe('kafka');
      expect(Number(trigger.metadata.lagThreshold)).toBeGreaterThan(0);
      // The writer reads a new group from the beginning (fromBeginning: true).
      expect(trigger.metadata.offsetResetPolicy).toBe('earliest');
      // KEDA's operator resolves the address from its own namespace, and authenticates like the services.
      expect(trigger.metadata.bootstrapServers).toBe(`${kafka.metadata.name}-kafka-bootstrap.${kafka.metadata.namespace}.svc:${listener.port}`);
      expect(trigger.authenticationRef.name).toBe(authentication.metadata.name);
      expect(scaler.spec.maxReplicaCount).toBeLessThanOrEqual(rendered().get('KafkaTopic', trigger.metadata.topic).spec.partitions);
    }
    // Its identity: a KafkaUser allowed to describe exactly those groups, its password from that user's Secret.
    const fromConfigMap = (parameter: string) => {
      const reference = authentication.spec.configMapTargetRef.find((r: any) => r.parameter === parameter);
      return rendered().get('ConfigMap', reference.name).data![reference.key];
    };
    expect({ sasl: fromConfigMap('sasl'), tls: fromConfigMap('tls') }).toEqual({ sasl: 'scram_sha512', tls: 'enable' });
    const user = rendered().get('KafkaUser', fromConfigMap('username'));
    const secrets = Object.fromEntries(authentication.spec.secretTargetRef.map((r: any) => [r.parameter, r]));
    expect(secrets.password).toEqual({ parameter: 'password', name: user.metadata.name, key: 'password' });
    expect(secrets.ca).toEqual({ parameter: 'ca', name: `${kafka.metadata.name}-cluster-ca-cert`, key: 'ca.crt' });
    const describedGroups = user.spec.authorization.acls.filter((a: any) => a.resource.type === 'group').map((a: any) => a.resource.name);
    expect(describedGroups.sort()).toEqual(expected.map((e) => e.group).sort());
    expect(scaler.spec.minReplicaCount).toBeLessThanOrEqual(scaler.spec.maxReplicaCount);
  });

  it('gives every pod one image of the platform, pinned', () => {
    const images = new Set(rendered().workloads().map((w) => appContainer(w).image as string));
    expect(images.size).toBe(1);
    const { name, tag, digest } = parseImage([...images][0]);
    expect(name).not.toBe('analytics');
    expect(tag ?? digest).toBeDefined();
    expect(tag).not.toBe('latest');
  });

  it('locks every pod down: non-root, read-only root with /tmp, no privilege escalation, no capabilities, RuntimeDefault seccomp', () => {
    for (const workload of rendered().workloads()) {
      const id = workload.metadata.name;
      expect({ id, problems: lockdownProblems(rendered().podsOf(workload).spec, appContainer(workload)) }).toEqual({ id, problems: [] });
    }
  });

  it('lets services drain on SIGTERM and get scraped by Prometheus on the management port', () => {
    for (const deployment of rendered().all('Deployment')) {
      const service = appContainer(deployment).args[0] as string;
      const pods = rendered().podsOf(deployment);
      const container = appContainer(deployment);
      const drainSeconds = Number(environmentOf(rendered(), service).values.SHUTDOWN_TIMEOUT_MS) / 1000;
      const pause = Number(container.lifecycle?.preStop?.exec?.command?.[1] ?? 0);
      expect(pods.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(15);
      expect(pods.spec.terminationGracePeriodSeconds).toBeGreaterThan(pause + drainSeconds);
      const metricsPort = container.ports.find((p: any) => p.name === 'management').containerPort;
      expect(pods.annotations).toEqual({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(metricsPort), 'prometheus.io/path': '/metrics' });
      expect(String(metricsPort)).toBe(configMapData(rendered()).MANAGEMENT_PORT);
      expect(container.ports.find((p: any) => p.name === 'http').containerPort).toBe(Number(configMapData(rendered()).PORT));
    }
    // An export runs until it is done: a scale-in or rollout gives it at least a minute to finish.
    expect(Number(environmentOf(rendered(), 'export').values.SHUTDOWN_TIMEOUT_MS)).toBeGreaterThanOrEqual(60_000);
  });

  it('wires every setting into every workload that needs it, secrets from Secrets only', () => {
    const configMap = configMapData(rendered());
    const settings = environmentVariableNames();
    for (const key of Object.keys(configMap)) expect(settings).toContain(key);
    for (const secret of SECRET_SETTINGS) expect(Object.keys(configMap)).not.toContain(secret);
    const contract = decodeSecret(render('dev').get('Secret', 'analytics-secrets'));
    for (const key of Object.keys(contract)) expect([...settings, ...ENGINE_SECRET_KEYS]).toContain(key);

    for (const workload of WORKLOADS) {
      const { sources } = environmentOf(rendered(), workload);
      for (const setting of settings) {
        const exemption = NOT_WIRED.find((n) => n.applies(setting, workload));
        const source: SettingSource | undefined = sources.get(setting);
        const wiring = { workload, setting, exemption: exemption?.reason };
        if (exemption) expect({ ...wiring, source }).toEqual({ ...wiring, source: undefined });
        else expect({ ...wiring, wired: source !== undefined }).toEqual({ ...wiring, wired: true });
        // A secret setting comes from a Secret, or is built only of variables that do (DATABASE_URL).
        const fromSecrets = (s?: SettingSource): boolean =>
          s?.from === 'Secret' || (s?.from === 'value' && !!s.references?.length && s.references.every((r) => fromSecrets(sources.get(r))));
        if (source && SECRET_SETTINGS.includes(setting)) expect({ ...wiring, fromSecrets: fromSecrets(source) }).toEqual({ ...wiring, fromSecrets: true });
      }
    }
  });

  it('gives every workload a configuration the platform accepts, for the cluster', () => {
    const chi = rendered().one('ClickHouseInstallation');
    const postgres = rendered().one('Cluster');
    for (const workload of WORKLOADS) {
      const { values } = environmentOf(rendered(), workload);
      const config = podConfig(values);
      expect({ workload, migrateOnStart: config.migrateOnStart }).toEqual({ workload, migrateOnStart: false });
      expect(config.kafka).toBeDefined();
      // Through the Pooler, with the owner's credentials.
      const pooler = rendered().all('Pooler').find((p) => p.spec.cluster.name === postgres.metadata.name)!;
      expect(config.databaseUrl).toBe(`postgresql://analytics:generated0Password@${pooler.metadata.name}:5432/analytics`);
      expect(chi.spec.configuration.clusters.map((c: any) => c.name)).toContain(config.clickhouseCluster);
      if (workload === MIGRATE || needsEngine(workload as ServiceName, 'clickhouse')) {
        expect(clickHouseUrlProblems(config.clickhouseUrl, chi, secretValues(rendered()))).toEqual([]);
      }
      if (workload !== MIGRATE) expect(config.services).toEqual([workload]);
    }
  });

  it('creates the topics the platform uses, partitioned and replicated as configured', () => {
    const settings = podConfig(environmentOf(rendered(), 'writer').values).kafka!;
    const kafka = rendered().one('Kafka');
    expect(settings.brokers).toEqual([`${kafka.metadata.name}-kafka-bootstrap:${clientListener(kafka).port}`]);
    const topics = rendered().all('KafkaTopic');
    const expected = topicSpecs(settings).map((s) => ({ topic: s.topic, partitions: s.numPartitions, replicas: s.replicationFactor }));
    expect(topics.map((t) => ({ topic: t.spec.topicName ?? t.metadata.name, partitions: t.spec.partitions, replicas: t.spec.replicas }))).toEqual(
      expect.arrayContaining(expected),
    );
    expect(topics).toHaveLength(expected.length);
  });

  it('routes the API hosts to the right services', () => {
    const hosts = rendered().all('Ingress').flatMap((i) => i.spec.rules.map((r: any) => r.host as string));
    const domain = hosts[0].split('.').slice(1).join('.');
    for (const host of hosts) expect(host.split('.').slice(1).join('.')).toBe(domain);
    // Every route of the role matrix, on every public host that carries it, reaches its owning service.
    const owned = ROLE_MATRIX.filter((r) => r.service !== 'every');
    const routes = owned.flatMap((r) => publicHostsOf(r.path).map((prefix): [string, string, string] => [prefix, r.path.replace(/[:*]\w+/g, '1'), r.service]));
    expect(new Set(routes.map(([prefix]) => prefix))).toEqual(new Set(Object.keys(PUBLIC_HOSTS)));
    for (const [prefix, path, service] of routes) {
      const request = `${prefix}.${domain}${path}`;
      expect({ request, to: route(rendered(), `${prefix}.${domain}`, path)?.service }).toEqual({ request, to: `analytics-${service}` });
    }
    expect(route(rendered(), `api.${domain}`, '/api/apps')).toBeUndefined();
    for (const ingress of rendered().all('Ingress')) {
      for (const path of ingress.spec.rules.flatMap((r: any) => r.http.paths)) {
        const service = rendered().get('Service', path.backend.service.name);
        expect(service.spec.ports.map((p: any) => p.name)).toContain(path.backend.service.port.name);
      }
      const ruleHosts = ingress.spec.rules.map((r: any) => r.host);
      for (const tls of ingress.spec.tls ?? []) for (const host of tls.hosts) expect(ruleHosts).toContain(host);
    }
  });

  it('binds each query host of the ingress to one data region (QUERY_REGION_HOSTS), the spec base to US', () => {
    const regionHosts = podConfig(environmentOf(rendered(), 'query').values).queryRegionHosts;
    const domain = rendered().get('Ingress', 'analytics-api').spec.rules[0].host.split('.').slice(1).join('.');
    expect(regionHosts).toEqual([
      { host: `api.${domain}`, region: 'US' },
      { host: `eu.${domain}`, region: 'EU' },
      { host: `in.${domain}`, region: 'IN' },
    ]);
    for (const { host } of regionHosts) expect(route(rendered(), host, '/api/query/engage')?.service).toBe('analytics-query');
  });

  it('denies by default and lets in only the ingress controller and Prometheus, out only DNS and the engines', () => {
    const policies = rendered().all('NetworkPolicy');
    const selecting = (labels: Record<string, string>) => policies.filter((p) => selects(p.spec.podSelector, labels));
    const backends = new Set(rendered().all('Ingress').flatMap((i) => i.spec.rules.flatMap((r: any) => r.http.paths.map((p: any) => p.backend.service.name))));
    for (const workload of rendered().workloads()) {
      const labels = rendered().podsOf(workload).labels;
      const applying = selecting(labels);
      expect(applying.some((p) => !p.spec.ingress && !p.spec.egress && p.spec.policyTypes.includes('Ingress') && p.spec.policyTypes.includes('Egress'))).toBe(true);
      const fromNamespaces = applying.flatMap((p) => p.spec.ingress ?? []).flatMap((rule: any) => rule.from.map((f: any) => f.namespaceSelector.matchLabels['kubernetes.io/metadata.name']));
      const isBackend = rendered().all('Service').some((s) => backends.has(s.metadata.name) && selects({ matchLabels: s.spec.selector }, labels));
      const expectedFrom = workload.kind === 'Job' ? [] : isBackend ? ['ingress-nginx', 'monitoring'] : ['monitoring'];
      expect({ workload: workload.metadata.name, from: fromNamespaces.sort() }).toEqual({ workload: workload.metadata.name, from: expectedFrom });
    }
    const egress = policies.flatMap((p) => p.spec.egress ?? []);
    const allowsTo = (matchLabels: Record<string, string>, port: number) =>
      egress.some((rule: any) => rule.ports.some((p: any) => p.port === port) && (rule.to ?? []).some((to: any) => selects(to.podSelector, matchLabels)));
    const kafka = rendered().one('Kafka');
    expect(allowsTo({ 'strimzi.io/cluster': kafka.metadata.name, 'strimzi.io/broker-role': 'true' }, clientListener(kafka).port)).toBe(true);
    expect(allowsTo({ 'clickhouse.altinity.com/chi': rendered().one('ClickHouseInstallation').metadata.name }, 8123)).toBe(true);
    expect(allowsTo({ 'cnpg.io/poolerName': rendered().one('Pooler').metadata.name }, 5432)).toBe(true);
    // The instances themselves only through the Pooler.
    expect(allowsTo({ 'cnpg.io/cluster': rendered().one('Cluster').metadata.name }, 5432)).toBe(false);
    expect(allowsTo({ 'k8s-app': 'kube-dns' }, 53)).toBe(true);
  });

  it('lets only the writer and management reach customer warehouses: public addresses on 5432 and 443, no private, link-local or metadata range', () => {
    const policies = rendered().all('NetworkPolicy');
    const ipRules = (labels: Record<string, string>) =>
      policies.filter((p) => selects(p.spec.podSelector, labels)).flatMap((p) => p.spec.egress ?? []).filter((rule: any) => (rule.to ?? []).some((to: any) => to.ipBlock));
    for (const workload of rendered().workloads()) {
      const labels = rendered().podsOf(workload).labels;
      const rules = ipRules(labels);
      if (!['management', 'writer'].includes(labels['app.kubernetes.io/component'])) {
        expect({ workload: workload.metadata.name, rules }).toEqual({ workload: workload.metadata.name, rules: [] });
        continue;
      }
      expect(rules.flatMap((rule: any) => rule.ports.map((p: any) => p.port)).sort()).toEqual([443, 5432]);
      const blocks = rules.flatMap((rule: any) => rule.to.map((to: any) => to.ipBlock));
      // Every range the apps refuse by default is outside the policy too, in both families.
      expect(blocks).toEqual([
        { cidr: '0.0.0.0/0', except: NON_PUBLIC_NETWORKS.filter((n) => !n.includes(':')) },
        { cidr: '::/0', except: NON_PUBLIC_NETWORKS.filter((n) => n.includes(':')) },
      ]);
    }
  });

  it('migrates with a Job that retries, expires and runs the migrate app', () => {
    const job = rendered().one('Job');
    expect(appContainer(job).args).toEqual([MIGRATE]);
    expect(job.spec.backoffLimit).toBeGreaterThan(0);
    expect(job.spec.ttlSecondsAfterFinished).toBeGreaterThan(0);
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
    expect(configMapData(rendered()).MIGRATE_ON_START).toBe('false');
  });
});

describe('what differs between the overlays', () => {
  it('dev runs one replica of everything on one-node engines with replication 1', () => {
    const dev = render('dev');
    for (const hpa of dev.all('HorizontalPodAutoscaler')) expect([hpa.spec.minReplicas, hpa.spec.maxReplicas]).toEqual([1, 1]);
    expect([dev.one('ScaledObject').spec.minReplicaCount, dev.one('ScaledObject').spec.maxReplicaCount]).toEqual([1, 1]);
    for (const pool of dev.all('KafkaNodePool')) expect(pool.spec.replicas).toBe(1);
    expect(configMapData(dev).KAFKA_REPLICATION_FACTOR).toBe('1');
    expect(dev.one('ClickHouseInstallation').spec.configuration.clusters[0].layout).toEqual({ shardsCount: 1, replicasCount: 1 });
    expect(dev.one('Cluster').spec.instances).toBe(1);
  });

  it('prod replicates (Kafka 3, ClickHouse 2 replicas per shard, Postgres standbys), autoscales wider, serves TLS and ships no Secret', () => {
    const prod = render('prod');
    for (const topic of prod.all('KafkaTopic')) expect(topic.spec.replicas).toBe(3);
    const brokers = prod.all('KafkaNodePool').filter((p) => p.spec.roles.includes('broker'));
    expect(brokers.reduce((sum, p) => sum + p.spec.replicas, 0)).toBeGreaterThanOrEqual(3);
    for (const cluster of prod.one('ClickHouseInstallation').spec.configuration.clusters) expect(cluster.layout.replicasCount).toBeGreaterThanOrEqual(2);
    expect(prod.one('Cluster').spec.instances).toBeGreaterThanOrEqual(3);
    for (const hpa of prod.all('HorizontalPodAutoscaler')) expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    for (const ingress of prod.all('Ingress')) {
      expect(ingress.spec.tls.flatMap((t: any) => t.hosts).sort()).toEqual(ingress.spec.rules.map((r: any) => r.host).sort());
    }
    expect(prod.all('Secret')).toEqual([]);
  });
});

// ---- the operators' resources: the fields their CRDs require and what the platform relies on ----

function brokers(rendered: Rendered): number {
  return rendered
    .all('KafkaNodePool')
    .filter((p) => p.spec.roles.includes('broker'))
    .reduce((sum, p) => sum + p.spec.replicas, 0);
}

function kafkaProblems(kafka: Manifest): string[] {
  const problems: string[] = [];
  const spec = kafka.spec?.kafka;
  if (typeof spec?.version !== 'string') problems.push('spec.kafka.version is required');
  if (!Array.isArray(spec?.listeners) || !spec.listeners.length) problems.push('spec.kafka.listeners is required');
  for (const l of spec?.listeners ?? []) if (!l.name || !Number.isInteger(l.port) || !l.type || typeof l.tls !== 'boolean') problems.push(`listener ${JSON.stringify(l)} needs name, port, type, tls`);
  // No listener lets a client in unauthenticated or in clear text; the KafkaUsers' ACLs apply.
  for (const l of spec?.listeners ?? []) if (l.tls !== true || l.authentication?.type !== 'scram-sha-512') problems.push(`listener ${l.name}: TLS with SCRAM-SHA-512 authentication`);
  if (spec?.authorization?.type !== 'simple') problems.push('spec.kafka.authorization: simple (the KafkaUsers’ ACLs)');
  if (!kafka.spec?.entityOperator?.userOperator) problems.push('the user operator manages the KafkaUsers: spec.entityOperator.userOperator');
  if (!/^\d+\.\d+\.\d+$/.test(spec?.version ?? '')) problems.push('spec.kafka.version: an exact release');
  // KRaft with node pools: replicas and storage belong to the pools, ZooKeeper is gone.
  if (kafka.spec?.zookeeper || spec?.replicas !== undefined || spec?.storage !== undefined) problems.push('replicas, storage and zookeeper belong to KafkaNodePools');
  if (!kafka.spec?.entityOperator?.topicOperator) problems.push('the topic operator manages the KafkaTopics: spec.entityOperator.topicOperator');
  return problems;
}

function nodePoolProblems(pool: Manifest, rendered: Rendered): string[] {
  const problems: string[] = [];
  if (!rendered.find('Kafka', pool.metadata.labels?.['strimzi.io/cluster'] ?? '')) problems.push('label strimzi.io/cluster names no Kafka');
  if (!Number.isInteger(pool.spec?.replicas) || pool.spec.replicas < 1) problems.push('spec.replicas is required');
  const roles: string[] = pool.spec?.roles ?? [];
  if (!roles.length || roles.some((r) => r !== 'controller' && r !== 'broker')) problems.push('spec.roles: controller and/or broker');
  const storage = pool.spec?.storage;
  if (!['jbod', 'persistent-claim', 'ephemeral'].includes(storage?.type)) problems.push('spec.storage.type is required');
  for (const volume of storage?.type === 'jbod' ? storage.volumes ?? [] : []) {
    if (!Number.isInteger(volume.id) || !volume.type || (volume.type === 'persistent-claim' && !volume.size)) problems.push(`volume ${JSON.stringify(volume)} needs id, type and size`);
  }
  const pools = rendered.all('KafkaNodePool');
  const controllers = pools.filter((p) => p.spec.roles.includes('controller')).reduce((sum, p) => sum + p.spec.replicas, 0);
  if (controllers % 2 !== 1) problems.push(`an odd number of controllers keeps a KRaft quorum (${controllers})`);
  if (brokers(rendered) < 1) problems.push('no broker');
  const config = rendered.one('Kafka').spec.kafka.config ?? {};
  if (Number(config['default.replication.factor']) > brokers(rendered)) problems.push('default.replication.factor exceeds the brokers');
  return problems;
}

function topicProblems(topic: Manifest, rendered: Rendered): string[] {
  const problems: string[] = [];
  if (!rendered.find('Kafka', topic.metadata.labels?.['strimzi.io/cluster'] ?? '')) problems.push('label strimzi.io/cluster names no Kafka');
  if (!Number.isInteger(topic.spec?.partitions) || topic.spec.partitions < 1) problems.push('spec.partitions is required');
  if (!Number.isInteger(topic.spec?.replicas) || topic.spec.replicas < 1 || topic.spec.replicas > brokers(rendered)) problems.push('spec.replicas: 1 to the number of brokers');
  const minInSync = Number(topic.spec?.config?.['min.insync.replicas'] ?? 1);
  if (minInSync > topic.spec?.replicas || (topic.spec?.replicas > 1 && minInSync >= topic.spec.replicas)) problems.push('min.insync.replicas must leave room for one replica down');
  return problems;
}

function keeperProblems(keeper: Manifest): string[] {
  const problems = templateProblems(keeper);
  const clusters: any[] = keeper.spec?.configuration?.clusters ?? [];
  if (clusters.length !== 1) return [...problems, 'spec.configuration.clusters: one Keeper cluster'];
  const replicas = clusters[0].layout?.replicasCount ?? 1;
  return replicas % 2 === 1 ? problems : [...problems, `an odd number of Keeper replicas keeps a quorum (${replicas})`];
}

function templateProblems(installation: Manifest): string[] {
  const problems: string[] = [];
  const templates = installation.spec?.templates ?? {};
  const named = (list: string) => new Set(((templates[list] ?? []) as any[]).map((t) => t.name));
  const references: Record<string, string> = {
    podTemplate: 'podTemplates',
    dataVolumeClaimTemplate: 'volumeClaimTemplates',
    volumeClaimTemplate: 'volumeClaimTemplates',
    serviceTemplate: 'serviceTemplates',
  };
  for (const [field, name] of Object.entries(installation.spec?.defaults?.templates ?? {})) {
    if (!references[field] || !named(references[field]).has(name)) problems.push(`defaults.templates.${field} names no template ${String(name)}`);
  }
  for (const pod of templates.podTemplates ?? []) {
    for (const container of pod.spec?.containers ?? []) {
      // An exact release (26.8.2.7), not a floating one (26.8, latest).
      const { tag } = parseImage(container.image ?? '');
      if (!/^\d+\.\d+\.\d+\.\d+(-[a-z]+)?$/.test(tag ?? '')) problems.push(`pod template ${pod.name}: container ${container.name} needs an image pinned to an exact release`);
    }
  }
  for (const claim of templates.volumeClaimTemplates ?? []) {
    if (!claim.spec?.accessModes?.length || !claim.spec?.resources?.requests?.storage) problems.push(`volume claim template ${claim.name} needs accessModes and a storage request`);
  }
  return problems;
}

function clickHouseProblems(chi: Manifest, rendered: Rendered): string[] {
  const problems = templateProblems(chi);
  const clusters: any[] = chi.spec?.configuration?.clusters ?? [];
  if (!clusters.length) problems.push('spec.configuration.clusters is required');
  for (const cluster of clusters) {
    if (!cluster.name || !(cluster.layout?.shardsCount >= 1) || !(cluster.layout?.replicasCount >= 1)) problems.push(`cluster ${cluster.name}: name and layout are required`);
  }
  if (!clusters.some((c) => c.name === configMapData(rendered).CLICKHOUSE_CLUSTER)) problems.push('no cluster is named CLICKHOUSE_CLUSTER');
  // Replicated tables need Keeper: the service of the ClickHouseKeeperInstallation, keeper-<name>:2181.
  const keeper = rendered.one('ClickHouseKeeperInstallation');
  const nodes: any[] = chi.spec?.configuration?.zookeeper?.nodes ?? [];
  if (!nodes.length || nodes.some((n) => n.host !== `keeper-${keeper.metadata.name}` || n.port !== 2181)) problems.push('zookeeper.nodes must name the Keeper installation');
  const service = (chi.spec?.templates?.serviceTemplates ?? []).find((t: any) => t.name === chi.spec?.defaults?.templates?.serviceTemplate);
  if (service?.spec?.type !== 'ClusterIP' || service?.generateName !== 'clickhouse-{chi}') problems.push('the ClickHouse Service stays in the cluster (ClusterIP) under the default name');
  return problems;
}

/** The services' URL names the installation's Service and a user whose password comes from the same Secret key. */
function clickHouseUrlProblems(value: string, chi: Manifest, secretValue: (name: string, key: string) => string | undefined): string[] {
  const url = new URL(value);
  const problems: string[] = [];
  if (url.protocol !== 'http:' || url.hostname !== `clickhouse-${chi.metadata.name}` || url.port !== '8123') problems.push(`${url.host}: expected clickhouse-${chi.metadata.name}:8123`);
  const ports = chi.spec.templates.serviceTemplates.flatMap((t: any) => t.spec.ports.map((p: any) => p.port));
  if (!ports.includes(8123)) problems.push('the ClickHouse Service has no port 8123');
  const password = chi.spec.configuration.users?.[`${decodeURIComponent(url.username)}/password`]?.valueFrom?.secretKeyRef;
  if (!password) problems.push(`ClickHouse user ${url.username} has no password from a Secret`);
  else if (secretValue(password.name, password.key) !== decodeURIComponent(url.password)) problems.push('the URL and the ClickHouse user disagree on the password');
  return problems;
}

function postgresProblems(cluster: Manifest, rendered: Rendered): string[] {
  const problems: string[] = [];
  if (!Number.isInteger(cluster.spec?.instances) || cluster.spec.instances < 1) problems.push('spec.instances is required');
  if (!cluster.spec?.storage?.size) problems.push('spec.storage.size is required');
  if (!applicationDatabase(cluster)) problems.push('one bootstrap, initdb or recovery, names the database and its owner');
  // An exact minor release (17.10, optionally with its image variant), not a major alone.
  if (!/^\d+\.\d+(-[a-z0-9]+)*$/.test(parseImage(cluster.spec?.imageName ?? '').tag ?? '')) problems.push('spec.imageName: an exact minor release');
  // DATABASE_URL is built from the owner's credentials CloudNativePG writes to <cluster>-app.
  for (const workload of rendered.workloads()) {
    const env = (appContainer(workload).env ?? []) as any[];
    for (const [name, key] of [['DATABASE_USER', 'username'], ['DATABASE_PASSWORD', 'password'], ['DATABASE_NAME', 'dbname']]) {
      const reference = env.find((e) => e.name === name)?.valueFrom?.secretKeyRef;
      if (reference?.name !== `${cluster.metadata.name}-app` || reference?.key !== key) problems.push(`${workload.metadata.name}: ${name} must come from ${cluster.metadata.name}-app/${key}`);
    }
  }
  return problems;
}

/** A Pooler in front of an existing Cluster's primary, in session mode unless the app is shown to work in transaction mode. */
function poolerProblems(pooler: Manifest, rendered: Rendered): string[] {
  const problems: string[] = [];
  if (!rendered.find('Cluster', pooler.spec?.cluster?.name ?? '')) problems.push('spec.cluster.name names no Cluster');
  if (pooler.spec?.type !== 'rw') problems.push('spec.type: rw (the services write)');
  if (pooler.spec?.pgbouncer?.poolMode !== 'session') problems.push('spec.pgbouncer.poolMode: session (pg-boss and the migrations hold session state)');
  if (!Number.isInteger(pooler.spec?.instances) || pooler.spec.instances < 1) problems.push('spec.instances is required');
  if (rendered.find('Cluster', pooler.metadata.name)) problems.push('a Pooler may not share its Cluster’s name');
  return problems;
}

/** A KafkaUser of the cluster, SCRAM-SHA-512, with ACLs on named topics and groups of the platform only. */
function kafkaUserProblems(user: Manifest, rendered: Rendered): string[] {
  const problems: string[] = [];
  if (!rendered.find('Kafka', user.metadata.labels?.['strimzi.io/cluster'] ?? '')) problems.push('label strimzi.io/cluster names no Kafka');
  if (user.spec?.authentication?.type !== 'scram-sha-512') problems.push('spec.authentication.type: scram-sha-512');
  if (user.spec?.authorization?.type !== 'simple') problems.push('spec.authorization.type: simple');
  const topics = new Set(rendered.all('KafkaTopic').map((t) => t.spec.topicName ?? t.metadata.name));
  const groups = new Set<string>(Object.values(CONSUMER_GROUPS));
  for (const { resource, operations } of (user.spec?.authorization?.acls ?? []) as any[]) {
    const id = `${resource.type} ${resource.name}`;
    if (!Array.isArray(operations) || !operations.length || operations.includes('All')) problems.push(`${id}: name its operations (never All)`);
    if (resource.type === 'topic' && !(resource.patternType === 'literal' && topics.has(resource.name))) problems.push(`${id}: a literal KafkaTopic of the cluster`);
    if (resource.type === 'group' && !(resource.patternType === 'literal' ? groups.has(resource.name) : resource.name === 'dlq-replay-')) problems.push(`${id}: a writer group (or the replay's prefix)`);
    if (resource.type === 'cluster' || resource.type === 'transactionalId') problems.push(`${id}: no cluster or transactional rights`);
    if (resource.type === 'topic' && operations?.some((o: string) => ['Create', 'Delete', 'Alter', 'AlterConfigs'].includes(o))) problems.push(`${id}: the KafkaTopics own the topics`);
  }
  return problems;
}
