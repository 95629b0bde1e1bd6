import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { KubernetesObject } from './kustomize';

/** Loose views of the rendered objects: the schemas are checked by kubernetes-models, these only read. */
export type Manifest = KubernetesObject & { spec?: any; data?: Record<string, string>; stringData?: Record<string, string> };

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

export function selects(selector: LabelSelector | undefined, labels: Record<string, string> = {}): boolean {
  if (!selector) return false;
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  const byExpressions = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    switch (operator) {
      case 'In':
        return key in labels && values.includes(labels[key]);
      case 'NotIn':
        return !(key in labels) || !values.includes(labels[key]);
      case 'Exists':
        return key in labels;
      case 'DoesNotExist':
        return !(key in labels);
    }
  });
  return byLabels && byExpressions;
}

export class Rendered {
  constructor(readonly objects: Manifest[]) {}

  all(kind: string): Manifest[] {
    return this.objects.filter((o) => o.kind === kind);
  }

  find(kind: string, name: string): Manifest | undefined {
    return this.objects.find((o) => o.kind === kind && o.metadata.name === name);
  }

  get(kind: string, name: string): Manifest {
    const found = this.find(kind, name);
    if (!found) throw new Error(`no ${kind} ${name} rendered`);
    return found;
  }

  one(kind: string): Manifest {
    const found = this.all(kind);
    if (found.length !== 1) throw new Error(`expected one ${kind}, rendered ${found.length}`);
    return found[0];
  }

  /** Deployments and Jobs: every pod the platform runs itself. */
  workloads(): Manifest[] {
    return this.objects.filter((o) => o.kind === 'Deployment' || o.kind === 'Job');
  }

  podsOf(workload: Manifest): { labels: Record<string, string>; spec: any; annotations: Record<string, string> } {
    const template = workload.spec.template;
    return { labels: template.metadata?.labels ?? {}, spec: template.spec, annotations: template.metadata?.annotations ?? {} };
  }

  deploymentsSelectedBy(selector: LabelSelector | undefined): Manifest[] {
    return this.all('Deployment').filter((d) => selects(selector, this.podsOf(d).labels));
  }
}

/** The one application container of a workload. */
export function appContainer(workload: Manifest): any {
  const containers = workload.spec.template.spec.containers as any[];
  if (containers.length !== 1) throw new Error(`${workload.metadata.name}: expected one container`);
  return containers[0];
}

export function decodeSecret(secret: Manifest): Record<string, string> {
  const decoded: Record<string, string> = { ...(secret.stringData ?? {}) };
  for (const [key, value] of Object.entries(secret.data ?? {})) decoded[key] = Buffer.from(value, 'base64').toString('utf8');
  return decoded;
}

/** A `value` may be built of earlier variables (`$(NAME)`): `references` names them. */
export type SettingSource =
  | { from: 'ConfigMap'; name: string }
  | { from: 'Secret'; name: string; key: string }
  | { from: 'value'; references?: string[] };

/**
 * Where each environment variable of a container comes from, and its value as the pod would see it
 * (`secretValue` answers for Secrets the cluster holds; undefined means absent).
 */
export function containerEnvironment(
  rendered: Rendered,
  container: any,
  secretValue: (name: string, key: string) => string | undefined,
): { values: Record<string, string>; sources: Map<string, SettingSource> } {
  const values: Record<string, string> = {};
  const sources = new Map<string, SettingSource>();
  for (const source of container.envFrom ?? []) {
    if (!source.configMapRef) throw new Error(`${container.name}: only configMapRef is expected in envFrom (secrets go key by key)`);
    const configMap = rendered.get('ConfigMap', source.configMapRef.name);
    for (const [key, value] of Object.entries(configMap.data ?? {})) {
      values[key] = value;
      sources.set(key, { from: 'ConfigMap', name: configMap.metadata.name });
    }
  }
  for (const variable of container.env ?? []) {
    if (variable.value !== undefined) {
      values[variable.name] = expandReferences(String(variable.value), values);
      const references = [...String(variable.value).matchAll(/(?<!\$)\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g)].map((m) => m[1]);
      sources.set(variable.name, references.length ? { from: 'value', references } : { from: 'value' });
      continue;
    }
    const reference = variable.valueFrom?.secretKeyRef;
    if (!reference) throw new Error(`${variable.name}: only values and secretKeyRefs are expected in env`);
    const value = secretValue(reference.name, reference.key);
    if (value === undefined && !reference.optional) throw new Error(`${variable.name}: Secret ${reference.name} has no key ${reference.key}`);
    if (value !== undefined) values[variable.name] = value;
    sources.set(variable.name, { from: 'Secret', name: reference.name, key: reference.key });
  }
  return { values, sources };
}

/**
 * Kubernetes' dependent variables: `$(NAME)` of a variable defined earlier in the container is its
 * value, `$$(NAME)` is the literal `$(NAME)`; a reference to anything else stays as written.
 */
export function expandReferences(value: string, defined: Record<string, string>): string {
  return value.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (match, name: string | undefined) =>
    name === undefined ? '$' : (defined[name] ?? match),
  );
}

/** The path a request takes through the Ingresses: the longest Exact or Prefix match on the host, as the Ingress spec orders them. */
export function route(rendered: Rendered, host: string, path: string): { service: string; port: string | number } | undefined {
  const candidates = rendered
    .all('Ingress')
    .flatMap((ingress) => ingress.spec.rules as any[])
    .filter((rule) => rule.host === host)
    .flatMap((rule) => rule.http.paths as any[])
    .filter((p) => (p.pathType === 'Exact' ? p.path === path : p.pathType === 'Prefix' && prefixMatches(p.path, path)))
    // The longest path wins; at equal length an Exact path before a Prefix one.
    .sort((a, b) => b.path.length - a.path.length || Number(b.pathType === 'Exact') - Number(a.pathType === 'Exact'));
  const backend = candidates[0]?.backend.service;
  return backend && { service: backend.name, port: backend.port.name ?? backend.port.number };
}

/** Kubernetes' Prefix: element by element, so /api/app matches /api/app/x but not /api/apps. */
function prefixMatches(prefix: string, path: string): boolean {
  const elements = (p: string) => p.split('/').filter(Boolean);
  const wanted = elements(prefix);
  const given = elements(path);
  return wanted.every((element, i) => given[i] === element);
}

/** Loads one subpath of an ES-module-only package (kubernetes-models): jest's require(esm) needs the file itself. */
export function esmPackage<T>(packageName: string, subpath: string): T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(join(dirname(require.resolve(`${packageName}/package.json`)), subpath, 'index.js')) as T;
}

const LOCKED_DOWN_CONTAINER = {
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  runAsNonRoot: true,
  capabilities: { drop: ['ALL'] },
  seccompProfile: { type: 'RuntimeDefault' },
};

/** Deep equality of plain data, whatever realm or prototype the parser gave its objects. */
const sameData = (a: unknown, b: unknown) => isDeepStrictEqual(JSON.parse(JSON.stringify(a ?? null)), JSON.parse(JSON.stringify(b ?? null)));

/** What keeps a pod from being locked down: non-root, read-only root with /tmp on an emptyDir, no escalation or capabilities, RuntimeDefault seccomp, bounded resources. */
export function lockdownProblems(pod: any, container: any): string[] {
  const problems: string[] = [];
  if (pod.securityContext?.runAsNonRoot !== true || pod.securityContext?.seccompProfile?.type !== 'RuntimeDefault') problems.push('pod: runAsNonRoot, RuntimeDefault seccomp');
  if (!sameData(container.securityContext, LOCKED_DOWN_CONTAINER)) problems.push(`container: securityContext ${JSON.stringify(LOCKED_DOWN_CONTAINER)}`);
  const tmp = (container.volumeMounts ?? []).find((m: any) => m.mountPath === '/tmp');
  if (!(pod.volumes ?? []).find((v: any) => v.name === tmp?.name)?.emptyDir) problems.push('container: /tmp on an emptyDir');
  for (const bound of ['requests', 'limits']) {
    if (!sameData(Object.keys(container.resources?.[bound] ?? {}).sort(), ['cpu', 'memory'])) problems.push(`container: resources.${bound} of cpu and memory`);
  }
  return problems;
}
