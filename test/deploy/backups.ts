import { Manifest, Rendered } from './manifests';

/** The CNPG-I plugin that archives WAL and takes base backups (it replaces the in-tree barmanObjectStore). */
export const BARMAN_CLOUD_PLUGIN = 'barman-cloud.cloudnative-pg.io';

type Range = readonly [number, number];
/** Minute, hour, day of month, month, day of week (0 and 7 are Sunday): a Kubernetes CronJob's five fields. */
const CRON_FIELDS: readonly Range[] = [
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12],
  [0, 7],
];
/** CloudNativePG's schedules (robfig/cron) put seconds first. */
const CRON_FIELDS_WITH_SECONDS: readonly Range[] = [[0, 59], ...CRON_FIELDS];

/**
 * What is wrong with a cron expression: the numeric forms only (`*`, `n`, `a-b`, lists, `/step`),
 * which is all these manifests use; names (MON, JAN) and macros (@daily) count as wrong here.
 */
export function cronProblems(expression: string, withSeconds: boolean): string[] {
  const ranges = withSeconds ? CRON_FIELDS_WITH_SECONDS : CRON_FIELDS;
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== ranges.length) return [`"${expression}": ${ranges.length} fields expected, got ${fields.length}`];
  return fields.flatMap((field, i) => field.split(',').flatMap((item) => cronItemProblems(item, ranges[i]).map((p) => `"${expression}" field ${i + 1}: ${p}`)));
}

function cronItemProblems(item: string, [min, max]: Range): string[] {
  const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(item);
  if (!match) return [`"${item}" is not *, n, a-b or a step of one`];
  const [, , from, to, step] = match;
  const numbers = [from, to].filter((n) => n !== undefined).map(Number);
  if (numbers.some((n) => n < min || n > max)) return [`"${item}" is outside ${min}-${max}`];
  if (numbers.length === 2 && numbers[0] > numbers[1]) return [`"${item}" runs backwards`];
  if (step !== undefined && Number(step) < 1) return [`"${item}" has a step below 1`];
  return [];
}

/** A valid expression that fires once a day: fixed time fields, every day of every month. */
export function firesOnceADay(expression: string, withSeconds: boolean): boolean {
  if (cronProblems(expression, withSeconds).length) return false;
  const fields = expression.trim().split(/\s+/);
  const time = fields.slice(0, withSeconds ? 3 : 2);
  const days = fields.slice(withSeconds ? 3 : 2);
  return time.every((f) => /^\d+$/.test(f)) && days.every((f) => f === '*');
}

export function objectStoreProblems(store: Manifest): string[] {
  const problems: string[] = [];
  const configuration = store.spec?.configuration ?? {};
  if (!/^s3:\/\/[a-z0-9][a-z0-9.-]+[a-z0-9]\/[^/].*$/.test(configuration.destinationPath ?? '')) problems.push('configuration.destinationPath: s3://<bucket>/<prefix>');
  // The plugin refuses it: the server name is a parameter of the Cluster's plugin entry.
  if (configuration.serverName !== undefined) problems.push('configuration.serverName must stay empty');
  if (configuration.endpointURL !== undefined && !/^https?:\/\/[^/]+\/?$/.test(configuration.endpointURL)) problems.push('configuration.endpointURL: http(s)://host[:port]');
  for (const field of ['accessKeyId', 'secretAccessKey']) {
    const reference = configuration.s3Credentials?.[field];
    if (!reference?.name || !reference?.key) problems.push(`configuration.s3Credentials.${field} names a Secret and a key`);
  }
  if (!/^[1-9][0-9]*[dwm]$/.test(store.spec?.retentionPolicy ?? '')) problems.push('retentionPolicy: <n>d, <n>w or <n>m');
  return problems;
}

/** The ObjectStore the Cluster archives WAL to through the plugin, if it names one that exists. */
export function walArchiveOf(cluster: Manifest, rendered: Rendered): Manifest | undefined {
  const archivers = ((cluster.spec?.plugins ?? []) as any[]).filter((p) => p.name === BARMAN_CLOUD_PLUGIN && p.isWALArchiver === true && p.enabled !== false);
  if (archivers.length !== 1) return undefined;
  return rendered.find('ObjectStore', archivers[0].parameters?.barmanObjectName ?? '');
}

export function scheduledBackupProblems(backup: Manifest, rendered: Rendered): string[] {
  const problems = cronProblems(String(backup.spec?.schedule ?? ''), true);
  const cluster = rendered.find('Cluster', backup.spec?.cluster?.name ?? '');
  if (!cluster) problems.push('spec.cluster.name names no Cluster');
  else if (!walArchiveOf(cluster, rendered)) problems.push(`Cluster ${cluster.metadata.name} archives WAL to no ObjectStore through ${BARMAN_CLOUD_PLUGIN}`);
  if (backup.spec?.method !== 'plugin' || backup.spec?.pluginConfiguration?.name !== BARMAN_CLOUD_PLUGIN) problems.push(`method: plugin, pluginConfiguration.name: ${BARMAN_CLOUD_PLUGIN}`);
  return problems;
}

/** The application's database and owner, named by the Cluster's one bootstrap: a new database (initdb) or a recovered one. */
export function applicationDatabase(cluster: Manifest): { database: string; owner: string } | undefined {
  const methods = Object.entries(cluster.spec?.bootstrap ?? {});
  if (methods.length !== 1 || !['initdb', 'recovery'].includes(methods[0][0])) return undefined;
  const { database, owner } = methods[0][1] as { database?: string; owner?: string };
  return database && owner ? { database, owner } : undefined;
}

/**
 * A Cluster recovered from the backups reads a server name's archive through the plugin and archives
 * under another one: CloudNativePG refuses to archive into a non-empty archive.
 */
export function recoveryProblems(cluster: Manifest, rendered: Rendered): string[] {
  const source = ((cluster.spec?.externalClusters ?? []) as any[]).find((c) => c.name === cluster.spec?.bootstrap?.recovery?.source);
  if (source?.plugin?.name !== BARMAN_CLOUD_PLUGIN) return [`bootstrap.recovery.source names no external cluster read through ${BARMAN_CLOUD_PLUGIN}`];
  const problems: string[] = [];
  if (!rendered.find('ObjectStore', source.plugin.parameters?.barmanObjectName ?? '')) problems.push('the recovery source names no ObjectStore');
  const from = source.plugin.parameters?.serverName ?? source.name;
  const archiver = ((cluster.spec?.plugins ?? []) as any[]).find((p) => p.isWALArchiver);
  const to = archiver?.parameters?.serverName ?? cluster.metadata.name;
  if (from === to) problems.push(`the recovered cluster archives into the archive it recovers from (${to})`);
  return problems;
}
