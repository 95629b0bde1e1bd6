import { EVENT_LIMITS, RESERVED_PROPERTIES } from '@analytics/events';
import { DictionaryError, DictionaryErrorCode, invalidSchema } from './dictionary-error';

export const ENTITY_TYPES = ['event', 'profile'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** The JSON-Schema types a property may have (the spec's seven). */
export const PROPERTY_TYPES = ['string', 'number', 'boolean', 'array', 'object', 'integer', 'null'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

/**
 * Our spec's metadata namespace and the real API's, accepted alike. A schema keeps one: the one its
 * latest upload used (ours when none ever named one), and readers get its metadata under that name.
 */
export const METADATA_NAMESPACES = ['com.vendor', 'com.mixpanel'] as const;
export type MetadataNamespace = (typeof METADATA_NAMESPACES)[number];
export const DEFAULT_NAMESPACE: MetadataNamespace = 'com.vendor';

/** Metadata values by key; in an upload, `null` means "remove this key". */
export type Metadata = Record<string, unknown>;
type MetadataNode = { metadata?: Partial<Record<MetadataNamespace, Metadata>> };

export interface PropertyDefinition extends MetadataNode {
  type: PropertyType;
  description?: string;
  /** Other JSON-Schema keywords (`examples`, `format`, `enum`, …) are kept as sent. */
  [keyword: string]: unknown;
}

export interface SchemaDocument extends MetadataNode {
  description?: string;
  properties?: Record<string, PropertyDefinition>;
  /** Other JSON-Schema keywords (`$schema`, `required`, `additionalProperties`, …) are kept as sent. */
  [keyword: string]: unknown;
}

export interface SchemaEntry {
  entityType: EntityType;
  name: string;
  schema: SchemaDocument;
}

const MAX_PROPERTIES = 2000;

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown) => typeof value === 'string';
const isBoolean = (value: unknown) => typeof value === 'boolean';
const isStringList = (value: unknown) => Array.isArray(value) && value.every(isString);
const isOwnerList = (value: unknown) =>
  Array.isArray(value) &&
  value.every(
    (owner) =>
      isObject(owner) && Object.entries(owner).every(([key, v]) => ['name', 'email'].includes(key) && isString(v)),
  );

/** Each metadata key the API knows, with its check and how the check reads in an error. */
type MetadataRules = Record<string, [check: (value: unknown) => boolean, expected: string]>;

const PROPERTY_METADATA: MetadataRules = {
  displayName: [isString, 'a string'],
  hidden: [isBoolean, 'true or false'],
  dropped: [isBoolean, 'true or false'],
};

const ENTITY_METADATA: MetadataRules = {
  ...PROPERTY_METADATA,
  $source: [isString, 'a string'],
  tags: [isStringList, 'an array of strings'],
  owners: [isOwnerList, 'an array of {"name", "email"} objects'],
};

export function parseEntityType(value: unknown, where = 'entityType'): EntityType {
  if ((ENTITY_TYPES as readonly unknown[]).includes(value)) return value as EntityType;
  throw new DictionaryError(
    DictionaryErrorCode.UnknownEntityType,
    `${where} must be ${ENTITY_TYPES.join(' or ')}, got ${JSON.stringify(value)}`,
  );
}

/** An event name, a profile property name, or `$user` (the user-profile schema). */
export function parseEntityName(value: unknown, where = 'name'): string {
  if (typeof value === 'string' && value !== '' && value.length <= EVENT_LIMITS.maxEventNameLength) return value;
  throw invalidSchema(where, `must be a string of 1 to ${EVENT_LIMITS.maxEventNameLength} characters`);
}

/** One entry of a batch upload; the schema may come as `schema` (our spec) or `schemaJson` (the real API). */
export function parseSchemaEntry(value: unknown, where: string): SchemaEntry {
  if (!isObject(value)) throw invalidSchema(where, 'must be an object with entityType, name and schema');
  const unknown = Object.keys(value).filter((key) => !['entityType', 'name', 'schema', 'schemaJson'].includes(key));
  if (unknown.length)
    throw invalidSchema(where, `unknown field ${unknown.map((key) => JSON.stringify(key)).join(', ')}`);
  if ((value.schema === undefined) === (value.schemaJson === undefined))
    throw invalidSchema(where, 'give the schema as either schema or schemaJson');
  const entityType = parseEntityType(value.entityType, `${where}.entityType`);
  return {
    entityType,
    name: parseEntityName(value.name, `${where}.name`),
    schema: parseSchema(value.schema ?? value.schemaJson, entityType, `${where}.schema`),
  };
}

/** Checks an uploaded schema against the spec's subset of JSON Schema and the metadata keys. */
export function parseSchema(value: unknown, entityType: EntityType, where = 'schema'): SchemaDocument {
  if (!isObject(value)) throw invalidSchema(where, 'must be a JSON object');
  if (value.description !== undefined && !isString(value.description))
    throw invalidSchema(`${where}.description`, 'must be a string');
  checkMetadata(value, ENTITY_METADATA, where, entityType);
  if (value.properties !== undefined) checkProperties(value.properties, entityType, `${where}.properties`);
  checkOneNamespace(value as SchemaDocument, where);
  return value as SchemaDocument;
}

function checkProperties(properties: unknown, entityType: EntityType, where: string): void {
  if (!isObject(properties)) throw invalidSchema(where, 'must be an object of property definitions');
  const names = Object.keys(properties);
  if (names.length > MAX_PROPERTIES)
    throw invalidSchema(where, `has ${names.length} properties; at most ${MAX_PROPERTIES} are allowed`);
  for (const name of names) {
    const at = `${where}.${name}`;
    if (name === '' || name.length > EVENT_LIMITS.maxStringLength)
      throw invalidSchema(at, `property names are 1 to ${EVENT_LIMITS.maxStringLength} characters`);
    const definition = properties[name];
    if (!isObject(definition)) throw invalidSchema(at, 'must be an object with a type');
    if (!(PROPERTY_TYPES as readonly unknown[]).includes(definition.type))
      throw invalidSchema(`${at}.type`, `is required, one of ${PROPERTY_TYPES.join(', ')}`);
    if (definition.description !== undefined && !isString(definition.description))
      throw invalidSchema(`${at}.description`, 'must be a string');
    checkMetadata(definition, PROPERTY_METADATA, at, entityType);
    if (RESERVED_PROPERTIES.has(name) && metadataOf(definition)?.dropped === true)
      throw invalidSchema(at, `${name} is part of every event and cannot be dropped`);
  }
}

function checkMetadata(node: JsonObject, rules: MetadataRules, where: string, entityType: EntityType): void {
  const { metadata } = node;
  if (metadata === undefined) return;
  if (!isObject(metadata))
    throw invalidSchema(`${where}.metadata`, `must be an object keyed by ${METADATA_NAMESPACES.join(' or ')}`);
  for (const [namespace, values] of Object.entries(metadata)) {
    const at = `${where}.metadata.${namespace}`;
    if (!(METADATA_NAMESPACES as readonly string[]).includes(namespace))
      throw invalidSchema(at, `unknown metadata namespace; use ${METADATA_NAMESPACES.join(' or ')}`);
    if (!isObject(values)) throw invalidSchema(at, 'must be an object');
    for (const [key, value] of Object.entries(values)) {
      const rule = rules[key];
      if (!rule)
        throw invalidSchema(`${at}.${key}`, `unknown metadata key; known keys are ${Object.keys(rules).join(', ')}`);
      if (value !== null && !rule[0](value))
        throw invalidSchema(`${at}.${key}`, `must be ${rule[1]} (or null to remove it)`);
    }
    if (values.dropped === true && entityType !== 'event')
      throw invalidSchema(`${at}.dropped`, 'only event schemas can drop data');
  }
}

/** Every metadata object of an upload uses the same namespace. */
function checkOneNamespace(schema: SchemaDocument, where: string): void {
  const used = new Set(
    [schema, ...Object.values(schema.properties ?? {})].flatMap((node) => Object.keys(node.metadata ?? {})),
  );
  if (used.size > 1)
    throw invalidSchema(where, `metadata uses both ${[...used].join(' and ')}; use one namespace throughout`);
}

function namespaceOf(schema: SchemaDocument): MetadataNamespace | undefined {
  for (const node of [schema, ...Object.values(schema.properties ?? {})]) {
    const [namespace] = Object.keys(node.metadata ?? {}) as MetadataNamespace[];
    if (namespace) return namespace;
  }
  return undefined;
}

/** A node's metadata values, whichever namespace holds them. */
export function metadataOf(node: MetadataNode | undefined): Metadata | undefined {
  const metadata = node?.metadata;
  return metadata && (metadata['com.vendor'] ?? metadata['com.mixpanel']);
}

/** Kept keys the upload omits survive; keys the upload sets to null go. */
function mergeMetadata(kept: Metadata | undefined, given: Metadata | undefined): Metadata {
  const merged: Metadata = { ...kept, ...given };
  for (const key of Object.keys(merged)) if (merged[key] === null) delete merged[key];
  return merged;
}

function withMetadata<T extends MetadataNode>(node: T, values: Metadata, namespace: MetadataNamespace): T {
  const { metadata: _, ...rest } = node;
  return (Object.keys(values).length ? { ...rest, metadata: { [namespace]: values } } : rest) as T;
}

/**
 * The schema an upload leaves behind: the upload replaces the stored schema, except that metadata
 * keys it omits (on the entity, and on properties present in both) are kept, and `null` removes one.
 * All metadata ends up under one namespace: the upload's, else the stored one's, else ours.
 */
export function mergeSchema(stored: SchemaDocument | undefined, upload: SchemaDocument): SchemaDocument {
  const namespace = namespaceOf(upload) ?? (stored && namespaceOf(stored)) ?? DEFAULT_NAMESPACE;
  const merged: SchemaDocument = { ...upload };
  if (upload.properties) {
    merged.properties = Object.fromEntries(
      Object.entries(upload.properties).map(([name, definition]) => {
        const values = mergeMetadata(metadataOf(stored?.properties?.[name]), metadataOf(definition));
        return [name, withMetadata(definition, values, namespace)];
      }),
    );
  }
  return withMetadata(merged, mergeMetadata(metadataOf(stored), metadataOf(upload)), namespace);
}

/** What ingestion must drop for this schema: only event schemas drop anything. */
export function droppingOf(
  entityType: EntityType,
  schema: SchemaDocument,
): { dropped: boolean; droppedProperties: string[] } {
  if (entityType !== 'event') return { dropped: false, droppedProperties: [] };
  const droppedProperties = Object.entries(schema.properties ?? {})
    .filter(([, definition]) => metadataOf(definition)?.dropped === true)
    .map(([name]) => name);
  return { dropped: metadataOf(schema)?.dropped === true, droppedProperties };
}
