import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

/**
 * A small Kustomize for the subset deploy/k8s uses: `resources` (files and directories), `patches`
 * (strategic merge or JSON 6902, inline target or by the patch's own kind and name), `namespace`,
 * `labels` (metadata only) and `images`. No maintained Kustomize exists on npm; where `kubectl` is
 * installed the deploy spec checks this renderer against `kubectl kustomize` object for object.
 * Anything outside the subset throws instead of rendering something Kustomize would not.
 */

export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

interface PatchTarget {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  labelSelector?: string;
}

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  resources?: string[];
  namespace?: string;
  labels?: { pairs: Record<string, string>; includeSelectors?: boolean; includeTemplates?: boolean }[];
  patches?: { path?: string; patch?: string; target?: PatchTarget }[];
  images?: { name: string; newName?: string; newTag?: string | number; digest?: string }[];
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const SUPPORTED_FIELDS = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'labels', 'patches', 'images']);
const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
const CLUSTER_SCOPED_KINDS = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'StorageClass', 'PriorityClass']);
/** API groups whose schemas Kustomize knows: only their lists merge by key; an operator resource's lists are replaced whole. */
const BUILT_IN_GROUPS = new Set(['', 'apps', 'batch', 'autoscaling', 'policy', 'networking.k8s.io', 'rbac.authorization.k8s.io']);

/** Renders the kustomization in `dir` into the objects `kustomize build dir` would print. */
export function kustomize(dir: string): KubernetesObject[] {
  const kustomization = readKustomization(dir);
  for (const field of Object.keys(kustomization)) {
    if (!SUPPORTED_FIELDS.has(field)) throw new Error(`${dir}: "${field}" is outside the Kustomize subset this renderer supports`);
  }
  let objects = (kustomization.resources ?? []).flatMap((entry) => loadResource(dir, entry));
  rejectDuplicates(objects, dir);

  // Kustomize's order of built-in transformers: patches, namespace, labels, images.
  for (const patch of kustomization.patches ?? []) objects = applyPatch(objects, patch, dir);
  if (kustomization.namespace) objects.forEach((object) => setNamespace(object, kustomization.namespace!));
  for (const { pairs, includeSelectors, includeTemplates } of kustomization.labels ?? []) {
    if (includeSelectors || includeTemplates) throw new Error(`${dir}: labels with includeSelectors/includeTemplates are not supported`);
    for (const object of objects) object.metadata.labels = { ...object.metadata.labels, ...pairs };
  }
  for (const image of kustomization.images ?? []) objects.forEach((object) => setImage(object as unknown as Json, image));
  return objects;
}

function readKustomization(dir: string): Kustomization {
  const file = KUSTOMIZATION_FILES.map((name) => join(dir, name)).find((path) => existsSync(path));
  if (!file) throw new Error(`${dir}: no kustomization.yaml`);
  const [document] = parseYaml(readFileSync(file, 'utf8'), file);
  return (document ?? {}) as Kustomization;
}

function parseYaml(text: string, source: string): Json[] {
  return parseAllDocuments(text).flatMap((document) => {
    if (document.errors.length) throw new Error(`${source}: ${document.errors[0].message}`);
    const value = document.toJS() as Json;
    return value === null ? [] : [value];
  });
}

function loadResource(dir: string, entry: string): KubernetesObject[] {
  if (/^[a-z]+:\/\//.test(entry)) throw new Error(`${dir}: remote resource ${entry} is not supported`);
  const path = resolve(dir, entry);
  if (statSync(path).isDirectory()) return kustomize(path);
  return parseYaml(readFileSync(path, 'utf8'), path).map((document) => {
    const object = document as unknown as KubernetesObject;
    if (!object.apiVersion || !object.kind || !object.metadata?.name) throw new Error(`${path}: a resource needs apiVersion, kind and metadata.name`);
    return object;
  });
}

function groupOf(apiVersion: string): string {
  return apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
}

function idOf(object: KubernetesObject): string {
  return `${groupOf(object.apiVersion)}/${object.kind}/${object.metadata.namespace ?? ''}/${object.metadata.name}`;
}

function rejectDuplicates(objects: KubernetesObject[], dir: string): void {
  const seen = new Set<string>();
  for (const object of objects) {
    const id = idOf(object);
    if (seen.has(id)) throw new Error(`${dir}: ${id} is declared twice`);
    seen.add(id);
  }
}

// ---- patches ----

function applyPatch(objects: KubernetesObject[], patch: { path?: string; patch?: string; target?: PatchTarget }, dir: string): KubernetesObject[] {
  const source = patch.path ? join(dir, patch.path) : `${dir} (inline patch)`;
  const text = patch.path ? readFileSync(join(dir, patch.path), 'utf8') : patch.patch;
  if (text === undefined) throw new Error(`${dir}: a patch needs path or patch`);
  const documents = parseYaml(text, source);

  if (documents.length === 1 && Array.isArray(documents[0])) {
    if (!patch.target) throw new Error(`${source}: a JSON 6902 patch needs a target`);
    const operations = documents[0] as JsonObject[];
    return forEachMatch(objects, patch.target, source, (object) => applyJson6902(object, operations, source));
  }
  let patched = objects;
  for (const document of documents) {
    const partial = document as unknown as KubernetesObject;
    const target: PatchTarget = patch.target ?? {
      group: groupOf(partial.apiVersion),
      version: partial.apiVersion.split('/').pop(),
      kind: partial.kind,
      name: escapeRegExp(partial.metadata.name),
      namespace: partial.metadata.namespace,
    };
    // With a target, the patch's own identity is a placeholder: the matched object keeps its own.
    const { apiVersion: _apiVersion, kind: _kind, metadata, ...body } = partial;
    const { name: _name, namespace: _namespace, ...metadataBody } = metadata ?? {};
    const merge = { ...body, ...(Object.keys(metadataBody).length ? { metadata: metadataBody } : {}) } as unknown as JsonObject;
    patched = forEachMatch(patched, target, source, (object) =>
      strategicMerge(object as unknown as JsonObject, merge, [], BUILT_IN_GROUPS.has(groupOf(object.apiVersion))) as unknown as KubernetesObject,
    );
  }
  return patched;
}

/** Stricter than Kustomize: a patch that matches nothing is a mistake, not a no-op. */
function forEachMatch(objects: KubernetesObject[], target: PatchTarget, source: string, change: (object: KubernetesObject) => KubernetesObject): KubernetesObject[] {
  let matched = 0;
  const result = objects.map((object) => {
    if (!matches(object, target)) return object;
    matched += 1;
    return change(structuredClone(object));
  });
  if (!matched) throw new Error(`${source}: the patch matches no resource (${JSON.stringify(target)})`);
  return result;
}

function matches(object: KubernetesObject, target: PatchTarget): boolean {
  const anchored = (pattern: string, value: string | undefined) => new RegExp(`^(?:${pattern})$`).test(value ?? '');
  if (target.kind !== undefined && !anchored(target.kind, object.kind)) return false;
  if (target.name !== undefined && !anchored(target.name, object.metadata.name)) return false;
  if (target.group !== undefined && !anchored(target.group, groupOf(object.apiVersion))) return false;
  if (target.version !== undefined && !anchored(target.version, object.apiVersion.split('/').pop())) return false;
  if (target.namespace !== undefined && !anchored(target.namespace, object.metadata.namespace)) return false;
  if (target.labelSelector !== undefined) {
    for (const requirement of target.labelSelector.split(',')) {
      const [key, value] = requirement.split('=').map((s) => s.trim());
      if (value === undefined) throw new Error(`label selector "${requirement}": only key=value is supported`);
      if (object.metadata.labels?.[key] !== value) return false;
    }
  }
  return true;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The keys by which Kustomize merges lists of built-in kinds (their OpenAPI patch merge keys). */
function mergeKeyOf(path: string[]): string | undefined {
  switch (path[path.length - 1]) {
    case 'containers':
    case 'initContainers':
    case 'ephemeralContainers':
    case 'env':
    case 'volumes':
    case 'imagePullSecrets':
      return 'name';
    case 'volumeMounts':
      return 'mountPath';
    case 'topologySpreadConstraints':
      return 'topologyKey';
    case 'ports':
      return path.includes('containers') || path.includes('initContainers') ? 'containerPort' : 'port';
    default:
      return undefined;
  }
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function strategicMerge(target: Json | undefined, patch: Json, path: string[], builtIn: boolean): Json {
  if (isObject(patch)) {
    for (const key of Object.keys(patch)) {
      if (key.startsWith('$')) throw new Error(`patch directive ${key} at ${path.join('.')} is not supported`);
    }
    if (!isObject(target)) return structuredClone(patch);
    const merged: JsonObject = { ...target };
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete merged[key];
      else merged[key] = strategicMerge(target[key], value, [...path, key], builtIn);
    }
    return merged;
  }
  if (Array.isArray(patch) && Array.isArray(target) && builtIn) {
    const key = mergeKeyOf(path);
    if (key && [...patch, ...target].every((item) => isObject(item) && item[key] !== undefined)) {
      // Kustomize's order: the patch's items (merged with their namesakes), then the target's others.
      const patchKeys = new Set(patch.map((item) => (item as JsonObject)[key]));
      const merged = patch.map((item) => {
        const existing = target.find((candidate) => (candidate as JsonObject)[key] === (item as JsonObject)[key]);
        return existing === undefined ? structuredClone(item) : strategicMerge(existing, item, path, builtIn);
      });
      return [...merged, ...target.filter((item) => !patchKeys.has((item as JsonObject)[key]))];
    }
  }
  return structuredClone(patch);
}

function applyJson6902(object: KubernetesObject, operations: JsonObject[], source: string): KubernetesObject {
  const document = object as unknown as JsonObject;
  for (const operation of operations) {
    const tokens = String(operation.path).split('/').slice(1).map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = tokens.pop();
    if (last === undefined) throw new Error(`${source}: cannot ${String(operation.op)} the whole document`);
    let parent: Json = document;
    for (const token of tokens) {
      const next: Json | undefined = Array.isArray(parent) ? parent[Number(token)] : isObject(parent) ? parent[token] : undefined;
      if (next === undefined || next === null) throw new Error(`${source}: ${String(operation.path)} does not exist in ${object.kind}/${object.metadata.name}`);
      parent = next;
    }
    const missing = () => new Error(`${source}: ${String(operation.path)} does not exist in ${object.kind}/${object.metadata.name}`);
    switch (operation.op) {
      case 'add':
        if (Array.isArray(parent)) parent.splice(last === '-' ? parent.length : Number(last), 0, structuredClone(operation.value));
        else if (isObject(parent)) parent[last] = structuredClone(operation.value);
        else throw missing();
        break;
      case 'replace':
        if (Array.isArray(parent) && Number(last) < parent.length) parent[Number(last)] = structuredClone(operation.value);
        else if (isObject(parent) && last in parent) parent[last] = structuredClone(operation.value);
        else throw missing();
        break;
      case 'remove':
        if (Array.isArray(parent) && Number(last) < parent.length) parent.splice(Number(last), 1);
        else if (isObject(parent) && last in parent) delete parent[last];
        else throw missing();
        break;
      default:
        throw new Error(`${source}: JSON patch operation "${String(operation.op)}" is not supported`);
    }
  }
  return object;
}

// ---- namespace, images ----

function setNamespace(object: KubernetesObject, namespace: string): void {
  if (object.kind === 'Namespace') {
    if (object.metadata.name !== namespace) throw new Error(`Namespace ${object.metadata.name} differs from the kustomization's namespace ${namespace}`);
    return;
  }
  if (object.kind.endsWith('Binding')) throw new Error(`${object.kind}: Kustomize also rewrites subjects' namespaces; not supported`);
  if (!CLUSTER_SCOPED_KINDS.has(object.kind)) object.metadata.namespace = namespace;
}

/** Splits `registry:port/name:tag@digest` into its parts. */
export function parseImage(image: string): { name: string; tag?: string; digest?: string } {
  const [reference, digest] = image.split('@');
  const slash = reference.lastIndexOf('/');
  const colon = reference.lastIndexOf(':');
  return colon > slash
    ? { name: reference.slice(0, colon), tag: reference.slice(colon + 1), digest }
    : { name: reference, digest };
}

/** Like Kustomize, rewrites every `containers` and `initContainers` entry of any kind whose image name matches. */
function setImage(node: Json, image: NonNullable<Kustomization['images']>[number]): void {
  if (Array.isArray(node)) {
    node.forEach((item) => setImage(item, image));
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'containers' || key === 'initContainers') && Array.isArray(value)) {
      for (const container of value) {
        if (!isObject(container) || typeof container.image !== 'string') continue;
        const current = parseImage(container.image);
        if (current.name !== image.name) continue;
        const name = image.newName ?? current.name;
        if (image.digest) container.image = `${name}@${image.digest}`;
        else if (image.newTag !== undefined) container.image = `${name}:${String(image.newTag)}`;
        else container.image = `${name}${current.tag ? `:${current.tag}` : ''}${current.digest ? `@${current.digest}` : ''}`;
      }
    }
    setImage(value, image);
  }
}
