/**
 * The cluster's backups as the overlays render them: Postgres through CloudNativePG's Barman Cloud
 * plugin (WAL archive, daily base backup), ClickHouse through a CronJob running BACKUP ... ON CLUSTER
 * (its script run for real against a stub clickhouse-client), and the engine logs' expiry.
 */
import { BACKUP_URL, BackupScriptSandbox } from './backup-script';
import { BARMAN_CLOUD_PLUGIN, cronProblems, firesOnceADay, recoveryProblems, walArchiveOf } from './backups';
import { OVERLAYS, render } from './cluster';
import { decodeSecret, lockdownProblems, Manifest, Rendered, selects } from './manifests';

const BACKUP_JOB = 'analytics-clickhouse-backup';

/**
 * The logs ClickHouse's own server configuration keeps that grow with use, and whether the operator
 * already defines them by a whole engine (then a `ttl` beside it would be refused: the TTL goes into
 * the engine). Left out: asynchronous_insert_log (3 days) and blob_storage_log (30 days) expire by
 * default; crash_log holds a row per crash; opentelemetry_span_log, s3queue_log and session_log stay
 * empty or off here; query_thread_log is removed by the operator.
 */
const EXPIRING_LOGS: Record<string, 'engine' | 'ttl'> = {
  query_log: 'engine',
  part_log: 'engine',
  trace_log: 'engine',
  query_views_log: 'ttl',
  error_log: 'ttl',
  backup_log: 'ttl',
  text_log: 'ttl',
  metric_log: 'ttl',
  asynchronous_metric_log: 'ttl',
  latency_log: 'ttl',
  query_metric_log: 'ttl',
  processors_profile_log: 'ttl',
};


/** A Secret's key as the cluster holds it: rendered, or (prod ships none) the dev overlay's, the documented contract. */
function secretHas(rendered: Rendered, name: string, key: string): boolean {
  const secret = rendered.find('Secret', name) ?? render('dev').find('Secret', name);
  return secret !== undefined && key in decodeSecret(secret);
}

function configMapValue(rendered: Rendered, name: string, key: string): string | undefined {
  return rendered.find('ConfigMap', name)?.data?.[key];
}

/** Every valueFrom of a container points at a key that exists. */
function missingReferences(rendered: Rendered, container: any): string[] {
  return (container.env ?? []).flatMap((variable: any) => {
    const secret = variable.valueFrom?.secretKeyRef;
    const configMap = variable.valueFrom?.configMapKeyRef;
    if (secret && !secretHas(rendered, secret.name, secret.key)) return [`${variable.name}: Secret ${secret.name} has no ${secret.key}`];
    if (configMap && configMapValue(rendered, configMap.name, configMap.key) === undefined) return [`${variable.name}: ConfigMap ${configMap.name} has no ${configMap.key}`];
    return [];
  });
}

function backupContainer(rendered: Rendered): any {
  const [container, ...others] = rendered.get('CronJob', BACKUP_JOB).spec.jobTemplate.spec.template.spec.containers;
  expect(others).toEqual([]);
  return container;
}

function clickHouseContainer(chi: Manifest): any {
  return chi.spec.templates.podTemplates.find((t: any) => t.name === chi.spec.defaults.templates.podTemplate).spec.containers[0];
}

const envSource = (container: any, name: string) => container.env.find((e: any) => e.name === name)?.valueFrom;

describe.each(OVERLAYS)('backups in overlay %s', (overlay) => {
  const rendered = () => render(overlay);

  it('archives Postgres WAL continuously through the Barman Cloud plugin, not the deprecated in-tree barmanObjectStore', () => {
    const cluster = rendered().one('Cluster');
    expect(cluster.spec.backup?.barmanObjectStore).toBeUndefined();
    const store = walArchiveOf(cluster, rendered());
    expect(store?.metadata.name).toBeDefined();
    expect(store!.spec.configuration.wal.compression).toBeDefined();
    // A recovery window of at least a week.
    const [, count, unit] = /^(\d+)([dwm])$/.exec(store!.spec.retentionPolicy)!;
    expect(Number(count) * { d: 1, w: 7, m: 30 }[unit as 'd' | 'w' | 'm']).toBeGreaterThanOrEqual(7);
  });

  it('creates Postgres new or from the backups, and then archives under a server name of its own', () => {
    const cluster = rendered().one('Cluster');
    const [method] = Object.keys(cluster.spec.bootstrap);
    expect(['initdb', 'recovery']).toContain(method);
    if (method === 'recovery') expect(recoveryProblems(cluster, rendered())).toEqual([]);
  });

  it('takes a Postgres base backup every day, and a first one as soon as the cluster exists', () => {
    const [backup, ...others] = rendered().all('ScheduledBackup');
    expect(others).toEqual([]);
    expect(backup.spec.cluster.name).toBe(rendered().one('Cluster').metadata.name);
    expect(firesOnceADay(backup.spec.schedule, true)).toBe(true);
    expect(backup.spec.immediate).toBe(true);
    expect(backup.spec.pluginConfiguration.name).toBe(BARMAN_CLOUD_PLUGIN);
  });

  it('backs ClickHouse up every day with a CronJob that never runs twice at once, with the servers’ own clickhouse-client', () => {
    const cronJob = rendered().get('CronJob', BACKUP_JOB);
    expect(cronProblems(cronJob.spec.schedule, false)).toEqual([]);
    expect(firesOnceADay(cronJob.spec.schedule, false)).toBe(true);
    expect(cronJob.spec.timeZone).toBe('Etc/UTC');
    expect(cronJob.spec.concurrencyPolicy).toBe('Forbid');
    const job = cronJob.spec.jobTemplate.spec;
    expect(job.backoffLimit).toBeGreaterThan(0);
    // The client waits as long as the job may run (the script's --receive_timeout).
    expect(job.activeDeadlineSeconds).toBe(21600);
    expect(job.template.spec.restartPolicy).toBe('Never');
    const chi = rendered().one('ClickHouseInstallation');
    expect(backupContainer(rendered()).image).toBe(clickHouseContainer(chi).image);
  });

  it('points the job at the installation: its Service, its cluster, the user whose password the Secret holds', () => {
    const container = backupContainer(rendered());
    const chi = rendered().one('ClickHouseInstallation');
    expect(missingReferences(rendered(), container)).toEqual([]);
    const value = (name: string) => container.env.find((e: any) => e.name === name)?.value;
    expect(value('CLICKHOUSE_HOST')).toBe(`clickhouse-${chi.metadata.name}`);
    const ports = chi.spec.templates.serviceTemplates.flatMap((t: any) => t.spec.ports.map((p: any) => p.port));
    expect(ports).toContain(9000);
    expect(envSource(container, 'CLICKHOUSE_PASSWORD')).toEqual({ secretKeyRef: chi.spec.configuration.users[`${value('CLICKHOUSE_USER')}/password`].valueFrom.secretKeyRef });
    expect(envSource(container, 'CLICKHOUSE_CLUSTER')).toEqual({ configMapKeyRef: { name: 'analytics-config', key: 'CLICKHOUSE_CLUSTER' } });
    expect(chi.spec.configuration.clusters.map((c: any) => c.name)).toContain(configMapValue(rendered(), 'analytics-config', 'CLICKHOUSE_CLUSTER'));
    // The script comes from the ConfigMap the pod mounts.
    const pod = rendered().get('CronJob', BACKUP_JOB).spec.jobTemplate.spec.template.spec;
    const mount = container.volumeMounts.find((m: any) => container.command[1].startsWith(`${m.mountPath}/`));
    const volume = pod.volumes.find((v: any) => v.name === mount.name);
    expect(configMapValue(rendered(), volume.configMap.name, container.command[1].slice(mount.mountPath.length + 1))).toContain('BACKUP DATABASE default ON CLUSTER');
  });

  it('runs the backup pods locked down: non-root, read-only root with /tmp, no escalation or capabilities, RuntimeDefault seccomp, no API token', () => {
    const pod = rendered().get('CronJob', BACKUP_JOB).spec.jobTemplate.spec.template.spec;
    const container = backupContainer(rendered());
    expect(lockdownProblems(pod, container)).toEqual([]);
    expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
    expect(pod.automountServiceAccountToken).toBe(false);
  });

  it('lets the backup pods reach only DNS and ClickHouse’s native port, and nothing reach them', () => {
    const labels = rendered().get('CronJob', BACKUP_JOB).spec.jobTemplate.spec.template.metadata.labels;
    const policies = rendered().all('NetworkPolicy').filter((p) => selects(p.spec.podSelector, labels));
    expect(policies.map((p) => p.metadata.name)).toEqual(['analytics-backup']);
    const [policy] = policies;
    expect(policy.spec.policyTypes.sort()).toEqual(['Egress', 'Ingress']);
    expect(policy.spec.ingress).toBeUndefined();
    const chi = rendered().one('ClickHouseInstallation').metadata.name;
    const allowed = policy.spec.egress.map((rule: any) => ({ to: rule.to.map((t: any) => t.podSelector.matchLabels), ports: rule.ports.map((p: any) => p.port).sort() }));
    expect(allowed).toEqual([
      { to: [{ 'k8s-app': 'kube-dns' }], ports: [53, 53] },
      { to: [{ 'clickhouse.altinity.com/chi': chi }], ports: [9000] },
    ]);
  });

  it('gives the ClickHouse servers the backup prefix the job writes under, with the bucket credentials Postgres uses', () => {
    const chi = rendered().one('ClickHouseInstallation');
    const server = clickHouseContainer(chi);
    expect(missingReferences(rendered(), server)).toEqual([]);
    const xml: string = chi.spec.configuration.files['config.d/backup-s3.xml'];
    const fromEnv = (element: string) => new RegExp(`<${element} from_env="([A-Z0-9_]+)"\\s*/>`).exec(xml)?.[1] ?? '';
    expect(envSource(server, fromEnv('endpoint'))).toEqual(envSource(backupContainer(rendered()), 'CLICKHOUSE_BACKUP_URL'));
    const credentials = walArchiveOf(rendered().one('Cluster'), rendered())!.spec.configuration.s3Credentials;
    expect(envSource(server, fromEnv('access_key_id'))).toEqual({ secretKeyRef: credentials.accessKeyId });
    expect(envSource(server, fromEnv('secret_access_key'))).toEqual({ secretKeyRef: credentials.secretAccessKey });
    expect(secretHas(rendered(), credentials.accessKeyId.name, credentials.accessKeyId.key)).toBe(true);
    expect(secretHas(rendered(), credentials.secretAccessKey.name, credentials.secretAccessKey.key)).toBe(true);
    expect(configMapValue(rendered(), 'analytics-backups', 'CLICKHOUSE_BACKUP_URL')).toMatch(/^https?:\/\/[^/]+\/[^'\\]+[^/]$/);
  });

  it('expires each engine log ClickHouse keeps by default after 7 to 30 days', () => {
    const settings: Record<string, string> = rendered().one('ClickHouseInstallation').spec.configuration.settings;
    for (const [log, form] of Object.entries(EXPIRING_LOGS)) {
      const given = { ttl: settings[`${log}/ttl`], engine: settings[`${log}/engine`] };
      expect({ log, form: given.engine ? 'engine' : 'ttl', both: Boolean(given.engine && given.ttl) }).toEqual({ log, form, both: false });
      const ttl = form === 'engine' ? / TTL (.+?)(?: SETTINGS |$)/.exec(given.engine)?.[1] : given.ttl;
      const days = Number(/^event_date \+ INTERVAL (\d+) DAY DELETE$/.exec(ttl ?? '')?.[1]);
      expect({ log, days: days >= 7 && days <= 30 }).toEqual({ log, days: true });
    }
  });
});

describe('the prod overlay', () => {
  it('ships the backup objects but no Secret: the bucket credentials are created beside analytics-secrets', () => {
    const prod = render('prod');
    expect(prod.all('ObjectStore')).toHaveLength(1);
    expect(prod.all('ScheduledBackup')).toHaveLength(1);
    expect(prod.find('CronJob', BACKUP_JOB)).toBeDefined();
    expect(prod.find('Secret', 'analytics-backups')).toBeUndefined();
    expect(walArchiveOf(prod.one('Cluster'), prod)!.spec.retentionPolicy).toBe('30d');
  });
});

describe('the prod-restore overlay', () => {
  const archivedAs = (cluster: Manifest) => cluster.spec.plugins.find((p: any) => p.isWALArchiver).parameters.serverName ?? cluster.metadata.name;

  it('recovers the Cluster from what prod archives, under the same name, so DATABASE_URL and the network rules stay', () => {
    const prod = render('prod').one('Cluster');
    const restored = render('prod-restore').one('Cluster');
    expect(restored.metadata.name).toBe(prod.metadata.name);
    const source = restored.spec.externalClusters.find((c: any) => c.name === restored.spec.bootstrap.recovery.source);
    expect(source.plugin.parameters).toEqual({ barmanObjectName: walArchiveOf(prod, render('prod'))!.metadata.name, serverName: archivedAs(prod) });
    expect(archivedAs(restored)).not.toBe(archivedAs(prod));
  });

  it('is prod in everything but the Cluster', () => {
    const others = (overlay: string) => render(overlay).objects.filter((o) => o.kind !== 'Cluster');
    expect(others('prod-restore')).toEqual(others('prod'));
  });
});

describe('the ClickHouse backup script (run with sh against a stub clickhouse-client)', () => {
  const URL = BACKUP_URL;
  let sandbox: BackupScriptSandbox;
  beforeAll(() => (sandbox = new BackupScriptSandbox(render('dev').get('ConfigMap', 'analytics-clickhouse-backup').data!['clickhouse-backup.sh'])));
  afterAll(() => sandbox.dispose());
  const run = (env: Record<string, string>) => sandbox.run(env);

  it('takes a full backup when the week (from Sunday, UTC) has no complete one yet', () => {
    const { status, queries, invocations } = run({ BACKUP_TIME: '2026-12-02T023000Z' });
    expect(status).toBe(0);
    expect(queries[0]).toContain(`s3('${URL}/2026-11-29/full-*/.backup', 'One')`);
    expect(queries[1]).toBe(`BACKUP DATABASE default ON CLUSTER 'analytics' TO S3('${URL}/2026-11-29/full-2026-12-02T023000Z')`);
    for (const args of invocations) expect(args.slice(0, 6)).toEqual(['--host', 'clickhouse-analytics', '--user', 'analytics', '--password', 'pw']);
  });

  it('takes an incremental backup based on the week’s newest complete full one', () => {
    const { status, queries } = run({ BACKUP_TIME: '2026-12-05T023000Z', STUB_FULL: 'full-2026-11-29T023000Z' });
    expect(status).toBe(0);
    expect(queries[1]).toBe(
      `BACKUP DATABASE default ON CLUSTER 'analytics' TO S3('${URL}/2026-11-29/2026-12-05T023000Z') SETTINGS base_backup = S3('${URL}/2026-11-29/full-2026-11-29T023000Z')`,
    );
  });

  it('starts a new week on Sunday', () => {
    expect(run({ BACKUP_TIME: '2026-12-06T023000Z' }).queries[1]).toContain(`TO S3('${URL}/2026-12-06/full-2026-12-06T023000Z')`);
    expect(run({ BACKUP_TIME: '2026-12-05T235959Z' }).queries[1]).toContain(`TO S3('${URL}/2026-11-29/full-`);
  });

  it('fails when the backup fails, so the Job retries (each attempt to a new path)', () => {
    const { status, queries } = run({ BACKUP_TIME: '2026-12-02T023000Z', STUB_BACKUP_STATUS: '3' });
    expect(status).toBe(3);
    expect(queries).toHaveLength(2);
  });

  it.each([`${URL}/it's`, `${URL}\\x`])('refuses a backup URL with a quote or backslash (%s) before any query', (url) => {
    const { status, stderr, invocations } = run({ CLICKHOUSE_BACKUP_URL: url });
    expect(status).toBe(64);
    expect(stderr).toMatch(/must not contain quotes or backslashes/);
    expect(invocations).toEqual([]);
  });
});
