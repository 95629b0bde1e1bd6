/**
 * The cluster as an SRE would run it (issue 37), on every rendered overlay: replicas spread over
 * nodes and zones, volumes that outlive their resources, Kafka disks that hold their topics, the
 * schema before any new pod, only API paths on the internet, engines reachable only by their users,
 * budgets that let drains proceed, and a pooler between the pods and Postgres.
 */
import { loadConfig, SERVICE_NAMES, ServiceName } from '@analytics/config';
import { NON_PUBLIC_NETWORKS } from '@analytics/outbound';
import { engineNeeds, PUBLIC_HOSTS } from '@analytics/service-map';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bytesOf, clientListener, maxReplicas, operatorSecrets, OVERLAYS, podConfig, postgresPoolSize, render, ROOT, spreadProblems } from './cluster';
import { parseImage } from './kustomize';
import { appContainer, containerEnvironment, decodeSecret, lockdownProblems, Manifest, Rendered, route, selects } from './manifests';

/** At most this share of a broker's volume is promised to the topics: the rest is room for what arrives between retention checks and for the offsets topic. */
const KAFKA_DISK_BUDGET = 0.75;
/** Connections Postgres keeps for others than the Pooler: superusers, the operator, backups, an operator at a psql prompt. */
const POSTGRES_RESERVED_CONNECTIONS = 20;
/** Paths that must never reach a service from the internet, on any host. */
const INTERNAL_PATHS = ['/metrics', '/readyz', '/healthz', '/api/docs', '/api/docs/openapi.json', '/api/docs-yaml'];
/** The console host's own paths besides the API prefixes: its pages (libs/management/src/console-files.ts) and built files. */
const CONSOLE_PATHS = ['/', '/events', '/insights', '/funnels', '/boards', '/flows', '/alerts', '/retention', '/cohorts', '/profiles', '/dictionary', '/settings', '/shared', '/assets', '/api/app', '/api/query', '/api/shared', '/api/2.0', '/api/2.0/export', '/track'];

const needsKafka = (service: string) =>
  engineNeeds(loadConfig({ KAFKA_BROKERS: 'kafka:9092', CLICKHOUSE_URL: 'http://c:8123', DATABASE_URL: 'postgres://p/db' }), [service as ServiceName]).kafka === true;

function secretValue(rendered: Rendered): (name: string, key: string) => string | undefined {
  const generated = operatorSecrets(rendered);
  return (name, key) => {
    const secret = rendered.find('Secret', name) ?? (name === 'analytics-secrets' ? render('dev').find('Secret', name) : undefined);
    return secret ? decodeSecret(secret)[key] : generated[name]?.[key];
  };
}

const podTemplate = (installation: Manifest, name: string) => installation.spec.templates.podTemplates.find((t: any) => t.name === name).spec;

describe.each(OVERLAYS)('the cluster in overlay %s', (overlay) => {
  const rendered = () => render(overlay);

  describe('survives a node loss', () => {
    it('never puts two ClickHouse servers or two Keepers on one node, and spreads them over zones', () => {
      const chi = rendered().one('ClickHouseInstallation');
      const chk = rendered().one('ClickHouseKeeperInstallation');
      const chiPod = podTemplate(chi, chi.spec.defaults.templates.podTemplate);
      const chkPod = podTemplate(chk, chk.spec.defaults.templates.podTemplate);
      expect(spreadProblems(chiPod, { 'clickhouse.altinity.com/chi': chi.metadata.name }, selects)).toEqual([]);
      expect(spreadProblems(chkPod, { 'clickhouse-keeper.altinity.com/chk': chk.metadata.name }, selects)).toEqual([]);
    });

    it('never puts two Kafka brokers or controllers of a pool on one node; replicas go to racks (zones) where there are several brokers', () => {
      const kafka = rendered().one('Kafka');
      for (const pool of rendered().all('KafkaNodePool')) {
        const labels = { 'strimzi.io/cluster': kafka.metadata.name, 'strimzi.io/pool-name': pool.metadata.name };
        const id = pool.metadata.name;
        expect({ id, problems: spreadProblems(pool.spec.template?.pod, labels, selects) }).toEqual({ id, problems: [] });
      }
      const brokers = rendered().all('KafkaNodePool').filter((p) => p.spec.roles.includes('broker')).reduce((sum, p) => sum + p.spec.replicas, 0);
      if (brokers > 1) expect(kafka.spec.kafka.rack).toEqual({ topologyKey: 'topology.kubernetes.io/zone' });
    });

    it('never puts two Postgres instances on one node (CloudNativePG, required) and spreads them over zones', () => {
      const cluster = rendered().one('Cluster');
      expect(cluster.spec.affinity).toMatchObject({ enablePodAntiAffinity: true, podAntiAffinityType: 'required', topologyKey: 'kubernetes.io/hostname' });
      const zone = cluster.spec.topologySpreadConstraints.find((c: any) => c.topologyKey === 'topology.kubernetes.io/zone');
      expect(selects(zone?.labelSelector, { 'cnpg.io/cluster': cluster.metadata.name })).toBe(true);
    });

    it('spreads each service’s replicas over nodes and zones (preferred, so a small cluster still runs them)', () => {
      for (const deployment of rendered().all('Deployment')) {
        const pods = rendered().podsOf(deployment);
        for (const key of ['kubernetes.io/hostname', 'topology.kubernetes.io/zone']) {
          const spread = (pods.spec.topologySpreadConstraints ?? []).find((c: any) => c.topologyKey === key);
          const id = `${deployment.metadata.name} ${key}`;
          expect({ id, selects: selects(spread?.labelSelector, pods.labels), perService: spread?.matchLabelKeys?.includes('app.kubernetes.io/component') }).toEqual({ id, selects: true, perService: true });
        }
      }
    });

    it('lets node drains proceed during an outage: every budget evicts unhealthy pods', () => {
      expect(rendered().all('PodDisruptionBudget').length).toBeGreaterThan(0);
      for (const budget of rendered().all('PodDisruptionBudget')) expect({ id: budget.metadata.name, policy: budget.spec.unhealthyPodEvictionPolicy }).toEqual({ id: budget.metadata.name, policy: 'AlwaysAllow' });
    });
  });

  describe('keeps the data', () => {
    it('retains ClickHouse’s and Keeper’s volumes, and Kafka’s, when their resource is deleted', () => {
      for (const installation of [...rendered().all('ClickHouseInstallation'), ...rendered().all('ClickHouseKeeperInstallation')]) {
        for (const claim of installation.spec.templates.volumeClaimTemplates) expect({ claim: claim.name, reclaimPolicy: claim.reclaimPolicy }).toEqual({ claim: claim.name, reclaimPolicy: 'Retain' });
      }
      for (const pool of rendered().all('KafkaNodePool')) {
        for (const volume of pool.spec.storage.volumes) expect({ pool: pool.metadata.name, deleteClaim: volume.deleteClaim }).toEqual({ pool: pool.metadata.name, deleteClaim: false });
      }
    });

    it('backs up every engine that holds data: each Postgres cluster on a schedule, each ClickHouse installation by a CronJob', () => {
      for (const cluster of rendered().all('Cluster')) expect(rendered().all('ScheduledBackup').some((b) => b.spec.cluster.name === cluster.metadata.name)).toBe(true);
      for (const chi of rendered().all('ClickHouseInstallation')) {
        const jobs = rendered()
          .all('CronJob')
          .filter((j) => j.spec.jobTemplate.spec.template.spec.containers.some((c: any) => c.env?.some((e: any) => e.name === 'CLICKHOUSE_HOST' && e.value === `clickhouse-${chi.metadata.name}`)));
        expect({ chi: chi.metadata.name, jobs: jobs.length }).toEqual({ chi: chi.metadata.name, jobs: 1 });
      }
    });

    it('pins ClickHouse, Keeper and Postgres to exact releases, and Kafka to one', () => {
      const exact = /^\d+\.\d+\.\d+\.\d+$/;
      for (const installation of [...rendered().all('ClickHouseInstallation'), ...rendered().all('ClickHouseKeeperInstallation')]) {
        for (const template of installation.spec.templates.podTemplates) for (const c of template.spec.containers) expect(parseImage(c.image).tag).toMatch(exact);
      }
      expect(parseImage(rendered().one('Cluster').spec.imageName).tag).toMatch(/^\d+\.\d+-/);
      expect(rendered().one('Kafka').spec.kafka.version).toMatch(/^\d+\.\d+\.\d+$/);
    });
  });

  describe('sizes Kafka’s disks', () => {
    it('bounds every topic by time and bytes, and what a broker holds at the bounds fits its volume with headroom', () => {
      const brokers = rendered().all('KafkaNodePool').filter((p) => p.spec.roles.includes('broker'));
      const brokerCount = brokers.reduce((sum, p) => sum + p.spec.replicas, 0);
      const volume = Math.min(...brokers.flatMap((p) => p.spec.storage.volumes.map((v: any) => bytesOf(v.size))));
      let perBroker = 0;
      for (const topic of rendered().all('KafkaTopic')) {
        const config = topic.spec.config ?? {};
        const id = topic.metadata.name;
        expect({ id, ms: Number(config['retention.ms']) > 0, bytes: Number(config['retention.bytes']) > 0, segment: Number(config['segment.bytes']) > 0 }).toEqual({ id, ms: true, bytes: true, segment: true });
        // Partition replicas on the fullest broker; a partition passes retention.bytes by up to one segment.
        const replicasOnBroker = Math.ceil((topic.spec.partitions * topic.spec.replicas) / brokerCount);
        perBroker += replicasOnBroker * (Number(config['retention.bytes']) + Number(config['segment.bytes']));
      }
      expect({ perBrokerGiB: perBroker / 2 ** 30, withinGiB: (volume * KAFKA_DISK_BUDGET) / 2 ** 30, fits: perBroker <= volume * KAFKA_DISK_BUDGET }).toMatchObject({ fits: true });
    });

    it('has the capacity model written down (docs/deploy.md, "Kafka capacity")', () => {
      const docs = readFileSync(join(ROOT, 'docs/deploy.md'), 'utf8');
      const section = docs.slice(docs.indexOf('## Kafka capacity'));
      expect(docs).toContain('## Kafka capacity');
      for (const term of ['events/s', 'bytes per event', 'retention.bytes', 'replication', 'headroom']) expect(section).toContain(term);
    });
  });

  describe('migrates before any new pod serves', () => {
    const job = () => rendered().one('Job');

    it('runs the Job as an Argo CD Sync hook after the engines and before the Deployments, never PreSync', () => {
      const annotations = job().metadata.annotations ?? {};
      expect(annotations['argocd.argoproj.io/hook']).toBe('Sync');
      expect(annotations['argocd.argoproj.io/hook-delete-policy']).toBe('BeforeHookCreation');
      const wave = (o: Manifest) => Number(o.metadata.annotations?.['argocd.argoproj.io/sync-wave'] ?? 0);
      const engines = ['Cluster', 'Pooler', 'Kafka', 'KafkaUser', 'ClickHouseInstallation', 'ClickHouseKeeperInstallation', 'ConfigMap', 'Secret'].flatMap((k) => rendered().all(k));
      for (const engine of engines) expect(wave(engine)).toBeLessThan(wave(job()));
      for (const deployment of rendered().all('Deployment')) expect({ id: deployment.metadata.name, after: wave(deployment) > wave(job()) }).toEqual({ id: deployment.metadata.name, after: true });
    });

    it('names the Job after its image, so a new image is a new Job (a Job’s pod template cannot change), and lets it expire', () => {
      const { tag, digest } = parseImage(appContainer(job()).image);
      const release = tag ?? digest!.replace(/^sha256:/, '').slice(0, 12);
      expect(job().metadata.name).toBe(`analytics-migrate-${release}`);
      expect(job().metadata.name.length).toBeLessThanOrEqual(63);
      expect(job().spec.ttlSecondsAfterFinished).toBeGreaterThan(0);
    });

    it('holds every Deployment’s pods in an init container until both schemas are this image’s (migrate --wait)', () => {
      for (const deployment of rendered().all('Deployment')) {
        const pods = rendered().podsOf(deployment);
        const [wait, ...others] = pods.spec.initContainers ?? [];
        const id = deployment.metadata.name;
        expect({ id, others: others.length, args: wait?.args, image: wait?.image }).toEqual({ id, others: 0, args: ['migrate', '--wait'], image: appContainer(deployment).image });
        expect({ id, problems: lockdownProblems(pods.spec, wait) }).toEqual({ id, problems: [] });
        // It reads both ledgers with the settings the migration Job uses.
        const env = containerEnvironment(rendered(), wait, secretValue(rendered())).values;
        const config = podConfig(env);
        const jobEnv = containerEnvironment(rendered(), appContainer(job()), secretValue(rendered())).values;
        expect({ id, database: config.databaseUrl, clickhouse: config.clickhouseUrl }).toEqual({ id, database: jobEnv.DATABASE_URL, clickhouse: jobEnv.CLICKHOUSE_URL });
      }
    });
  });

  describe('exposes only the API', () => {
    it('routes no internal path (metrics, health, OpenAPI) on any host, and only the prefixes each host serves', () => {
      const hosts = rendered().all('Ingress').flatMap((i) => i.spec.rules as any[]);
      for (const rule of hosts) {
        for (const path of INTERNAL_PATHS) expect({ host: rule.host, path, to: route(rendered(), rule.host, path) }).toEqual({ host: rule.host, path, to: undefined });
        const prefix: string = rule.host.split('.')[0];
        const publicHosts: Record<string, readonly string[]> = PUBLIC_HOSTS;
        const allowed = publicHosts[prefix] ?? (prefix === 'console' ? CONSOLE_PATHS : []);
        // A prefix the host serves, or a path under one (/api/app/data-retrievals under /api/app); "/" only exactly.
        const serves = (path: string) => allowed.some((a) => a === path || (a !== '/' && path.startsWith(`${a}/`)));
        for (const path of rule.http.paths) expect({ host: rule.host, path: path.path, allowed: serves(path.path) }).toEqual({ host: rule.host, path: path.path, allowed: true });
        expect(rule.http.paths.filter((p: any) => p.path === '/' && p.pathType !== 'Exact')).toEqual([]);
      }
    });

    it('serves health and metrics on a management port no Service exposes and no Ingress reaches', () => {
      for (const deployment of rendered().all('Deployment')) {
        const management = appContainer(deployment).ports.find((p: any) => p.name === 'management');
        expect(management?.containerPort).toBeDefined();
      }
      for (const service of rendered().all('Service')) {
        for (const port of service.spec.ports) expect({ service: service.metadata.name, target: port.targetPort }).toEqual({ service: service.metadata.name, target: 'http' });
      }
    });
  });

  describe('opens each engine only to the pods that use it', () => {
    const policiesSelecting = (labels: Record<string, string>) => rendered().all('NetworkPolicy').filter((p) => selects(p.spec.podSelector, labels));
    const platformPods = () => rendered().workloads().map((w) => rendered().podsOf(w).labels);

    it('authenticates every Kafka client (TLS, SCRAM) and lets only the services with a KafkaUser reach the listener', () => {
      const kafka = rendered().one('Kafka');
      const listener = clientListener(kafka);
      expect({ tls: listener.tls, authentication: listener.authentication?.type }).toEqual({ tls: true, authentication: 'scram-sha-512' });
      const peers = listener.networkPolicyPeers ?? [];
      const users = new Set(rendered().all('KafkaUser').map((u) => u.metadata.name));
      for (const workload of rendered().workloads()) {
        const labels = rendered().podsOf(workload).labels;
        const peer = peers.some((p: any) => !p.namespaceSelector && selects(p.podSelector, labels));
        const env = containerEnvironment(rendered(), appContainer(workload), secretValue(rendered()));
        const username = env.values.KAFKA_SASL_USERNAME;
        const service = appContainer(workload).args[0] as string;
        const id = workload.metadata.name;
        const uses = (SERVICE_NAMES as readonly string[]).includes(service) && needsKafka(service);
        expect({ id, peer, user: username !== undefined && users.has(username) }).toEqual({ id, peer: uses, user: uses });
        if (!uses) continue;
        expect(env.sources.get('KAFKA_SASL_PASSWORD')).toEqual({ from: 'Secret', name: username, key: 'password' });
        expect({ ssl: env.values.KAFKA_SSL, mechanism: env.values.KAFKA_SASL_MECHANISM }).toEqual({ ssl: 'true', mechanism: 'scram-sha-512' });
        // The brokers are verified against the cluster CA, mounted where KAFKA_SSL_CA_FILE points.
        const mount = appContainer(workload).volumeMounts.find((m: any) => env.values.KAFKA_SSL_CA_FILE?.startsWith(`${m.mountPath}/`));
        const volume = rendered().podsOf(workload).spec.volumes.find((v: any) => v.name === mount?.name);
        expect(volume?.secret?.secretName).toBe(`${kafka.metadata.name}-cluster-ca-cert`);
      }
      // Besides them only KEDA, from its own namespace.
      expect(peers.filter((p: any) => p.namespaceSelector).map((p: any) => p.namespaceSelector.matchLabels)).toEqual([{ 'kubernetes.io/metadata.name': 'keda' }]);
    });

    it('lets into ClickHouse only the platform, its backup job, its own replicas and its operator, and out only DNS, Keeper, replicas and the public destinations', () => {
      const chi = rendered().one('ClickHouseInstallation');
      const labels = { 'clickhouse.altinity.com/chi': chi.metadata.name };
      const policies = policiesSelecting(labels);
      expect(policies.some((p) => p.spec.policyTypes.includes('Ingress') && p.spec.policyTypes.includes('Egress'))).toBe(true);
      const sources = policies.flatMap((p) => p.spec.ingress ?? []).flatMap((rule: any) => rule.from);
      for (const source of sources) {
        const known =
          (!source.namespaceSelector && (selects(source.podSelector, labels) || selects(source.podSelector, { 'app.kubernetes.io/name': 'analytics-backup' }) || platformPods().some((l) => selects(source.podSelector, l)))) ||
          source.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'kube-system';
        expect({ source, known }).toEqual({ source, known: true });
      }
      const egress = policies.flatMap((p) => p.spec.egress ?? []);
      const blocks = egress.flatMap((rule: any) => (rule.to ?? []).filter((to: any) => to.ipBlock).map((to: any) => to.ipBlock));
      expect(blocks).toEqual([
        { cidr: '0.0.0.0/0', except: NON_PUBLIC_NETWORKS.filter((n) => !n.includes(':')) },
        { cidr: '::/0', except: NON_PUBLIC_NETWORKS.filter((n) => n.includes(':')) },
      ]);
      expect(egress.every((rule: any) => rule.to?.length && rule.ports?.length)).toBe(true);
    });

    it('lets into Postgres only its Pooler, its own instances, its operator and Prometheus; into the Pooler only the platform', () => {
      const cluster = rendered().one('Cluster');
      const pooler = rendered().one('Pooler');
      const instances = policiesSelecting({ 'cnpg.io/cluster': cluster.metadata.name });
      const poolers = policiesSelecting({ 'cnpg.io/poolerName': pooler.metadata.name });
      for (const [policies, allowedPods] of [
        [instances, [{ 'cnpg.io/poolerName': pooler.metadata.name }, { 'cnpg.io/cluster': cluster.metadata.name }]],
        [poolers, platformPods()],
      ] as const) {
        expect(policies.some((p) => p.spec.policyTypes.includes('Ingress'))).toBe(true);
        for (const source of policies.flatMap((p) => p.spec.ingress ?? []).flatMap((rule: any) => rule.from)) {
          const namespace = source.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'];
          const known = namespace ? ['cnpg-system', 'monitoring'].includes(namespace) : (allowedPods as Record<string, string>[]).some((l) => selects(source.podSelector, l));
          expect({ source, known }).toEqual({ source, known: true });
        }
      }
      // The platform's pods are not among the instances' sources: they reach Postgres through the Pooler.
      const direct = instances.flatMap((p) => p.spec.ingress ?? []).flatMap((rule: any) => rule.from).filter((f: any) => platformPods().some((l) => selects(f.podSelector, l)));
      expect(direct).toEqual([]);
    });
  });

  describe('pools Postgres connections', () => {
    it('fits every pod’s pool through the Pooler (one Pooler pod down), and the Pooler within max_connections', () => {
      const cluster = rendered().one('Cluster');
      const pooler = rendered().one('Pooler');
      const pool = postgresPoolSize(ROOT);
      const clients = rendered().all('Deployment').reduce((sum, d) => sum + maxReplicas(rendered(), d) * pool, 0) + rendered().all('Job').length * pool;
      const maxClients = Number(pooler.spec.pgbouncer.parameters.max_client_conn) * Math.max(1, pooler.spec.instances - 1);
      const servers = Number(pooler.spec.pgbouncer.parameters.default_pool_size) * pooler.spec.instances;
      const maxConnections = Number(cluster.spec.postgresql.parameters.max_connections);
      expect({ clients, fits: clients <= maxClients }).toEqual({ clients, fits: true });
      expect({ servers, fits: servers <= maxConnections - POSTGRES_RESERVED_CONNECTIONS }).toEqual({ servers, fits: true });
    });
  });
});
