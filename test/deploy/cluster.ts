import { AppConfig, loadConfig } from '@analytics/config';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { applicationDatabase } from './backups';
import { kustomize } from './kustomize';
import { Manifest, Rendered } from './manifests';

/**
 * What the engines' operators write and the manifests rely on, and the rules the deploy specs apply
 * to the rendered cluster: spread, retained volumes, the Kafka listener and its users, the Pooler.
 */

export const ROOT = resolve(__dirname, '../..');
export const K8S = join(ROOT, 'deploy/k8s');
export const OVERLAYS = readdirSync(join(K8S, 'overlays')).sort();

const renders = new Map<string, Rendered>();
/** An overlay as Kustomize renders it, once per test file. */
export function render(overlay: string): Rendered {
  if (!renders.has(overlay)) renders.set(overlay, new Rendered(kustomize(join(K8S, 'overlays', overlay))));
  return renders.get(overlay)!;
}

/** Kafka client settings only the services with a KafkaUser receive. */
/** Where a stand-in of the brokers' CA sits here: in a pod, the mounted Secret's file. */
const STAND_IN_CA = join(mkdtempSync(join(tmpdir(), 'deploy-ca-')), 'ca.crt');
writeFileSync(STAND_IN_CA, '-----BEGIN CERTIFICATE-----\nstand-in\n-----END CERTIFICATE-----\n');

/** A workload's settings as its pod would load them (the Kafka CA file it mounts read from a stand-in). */
export function podConfig(values: Record<string, string>): AppConfig {
  return loadConfig(values.KAFKA_SSL_CA_FILE ? { ...values, KAFKA_SSL_CA_FILE: STAND_IN_CA } : values);
}

export const KAFKA_CLIENT_SETTINGS = [
  'KAFKA_SSL',
  'KAFKA_SSL_CA_FILE',
  'KAFKA_SASL_MECHANISM',
  'KAFKA_SASL_USERNAME',
  'KAFKA_SASL_PASSWORD',
];

/** The Kafka cluster's one client listener: TLS, SCRAM-SHA-512. */
export function clientListener(kafka: Manifest): { name: string; port: number; tls: boolean; authentication?: { type: string }; networkPolicyPeers?: any[] } {
  const listeners = kafka.spec.kafka.listeners as any[];
  if (listeners.length !== 1) throw new Error(`the Kafka cluster needs one client listener, has ${listeners.length}`);
  return listeners[0];
}

/**
 * Secrets the operators write, as the specs need them: CloudNativePG's <cluster>-app (an alphanumeric
 * generated password), Strimzi's cluster CA and one Secret per KafkaUser (key "password").
 */
export function operatorSecrets(rendered: Rendered): Record<string, Record<string, string>> {
  const postgres = rendered.one('Cluster');
  const { database, owner } = applicationDatabase(postgres)!;
  const host = `${postgres.metadata.name}-rw.${postgres.metadata.namespace}`;
  const secrets: Record<string, Record<string, string>> = {
    [`${postgres.metadata.name}-app`]: {
      username: owner,
      password: 'generated0Password',
      host,
      port: '5432',
      dbname: database,
      uri: `postgresql://${owner}:generated0Password@${host}:5432/${database}`,
    },
  };
  for (const kafka of rendered.all('Kafka')) secrets[`${kafka.metadata.name}-cluster-ca-cert`] = { 'ca.crt': 'PEM', 'ca.p12': 'P12', 'ca.password': 'x' };
  for (const user of rendered.all('KafkaUser')) secrets[user.metadata.name] = { password: `generated-${user.metadata.name}`, 'sasl.jaas.config': '...' };
  return secrets;
}

/** A pod's labels are selected by a required anti-affinity term on `key`, and a preferred one (or a spread) on zones. */
export function spreadProblems(pod: any, labels: Record<string, string>, selects: (selector: any, labels: Record<string, string>) => boolean): string[] {
  const problems: string[] = [];
  const anti = pod?.affinity?.podAntiAffinity ?? {};
  const required = (anti.requiredDuringSchedulingIgnoredDuringExecution ?? []) as any[];
  const preferred = ((anti.preferredDuringSchedulingIgnoredDuringExecution ?? []) as any[]).map((p) => p.podAffinityTerm);
  const spreads = (pod?.topologySpreadConstraints ?? []) as any[];
  const hostname = required.some((t) => t.topologyKey === 'kubernetes.io/hostname' && selects(t.labelSelector, labels));
  if (!hostname) problems.push('no required anti-affinity across kubernetes.io/hostname selecting its own pods');
  const zone =
    preferred.some((t) => t.topologyKey === 'topology.kubernetes.io/zone' && selects(t.labelSelector, labels)) ||
    spreads.some((s) => s.topologyKey === 'topology.kubernetes.io/zone' && selects(s.labelSelector, labels));
  if (!zone) problems.push('no preferred spread across topology.kubernetes.io/zone selecting its own pods');
  return problems;
}

/** Bytes of a Kubernetes quantity (Gi, Ti, G, plain). */
export function bytesOf(quantity: string | number): number {
  const match = /^(\d+(?:\.\d+)?)([KMGTP]i?)?$/.exec(String(quantity));
  if (!match) throw new Error(`not a quantity: ${quantity}`);
  const units: Record<string, number> = { '': 1, K: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50 };
  return Number(match[1]) * units[match[2] ?? ''];
}

/** The connections one process opens to Postgres at most: the pool size of libs/postgres. */
export function postgresPoolSize(root: string): number {
  const source = readFileSync(join(root, 'libs/postgres/src/postgres.ts'), 'utf8');
  const match = /new Pool\(\{[^}]*\bmax: (\d+)/.exec(source);
  if (!match) throw new Error('libs/postgres/src/postgres.ts: no Pool max found');
  return Number(match[1]);
}

/** The most replicas a Deployment may reach: its HPA's or ScaledObject's maximum. */
export function maxReplicas(rendered: Rendered, deployment: Manifest): number {
  const scaler = [...rendered.all('HorizontalPodAutoscaler'), ...rendered.all('ScaledObject')].find((a) => a.spec.scaleTargetRef.name === deployment.metadata.name);
  if (!scaler) throw new Error(`${deployment.metadata.name}: no autoscaler`);
  return scaler.spec.maxReplicas ?? scaler.spec.maxReplicaCount;
}
