import { EVENT_LIMITS, FORBIDDEN_IDS } from '@analytics/events';
import { ProfileLimits } from './profile-limits';
import { parseUpdateTime } from './profile-time';
import {
  GROUP_OPERATIONS,
  OperationName,
  ProfileIdentity,
  ProfileOperation,
  ProfileUpdate,
  PropertyValue,
  UpdateTiming,
  USER_OPERATIONS,
  USER_PROFILES,
} from './profile-update';
import { cleanValue, InvalidRecord, isPlainObject, jsonBytes, numericValue, storableText } from './property-values';

export type ProfileScope = 'user' | 'group';

/**
 * `$` names an update may set although custom names must not start with `$`: the real API's
 * reserved profile properties, and what its official SDKs put inside operations (the browser SDK
 * adds `$os`, `$browser`, `$browser_version` to every `$set`; `track_charge` appends to `$transactions`).
 */
export const RESERVED_PROFILE_PROPERTIES: ReadonlySet<string> = new Set([
  '$email',
  '$name',
  '$first_name',
  '$last_name',
  '$phone',
  '$avatar',
  '$created',
  '$last_seen',
  '$city',
  '$region',
  '$country_code',
  '$timezone',
  '$unsubscribed',
  '$transactions',
  '$android_devices',
  '$ios_devices',
  '$os',
  '$browser',
  '$browser_version',
]);
/** The mobile SDKs describe the device under these prefixes. */
const DEVICE_PROPERTY_PREFIXES = ['$android_', '$ios_'];

export const isReservedProfileProperty = (name: string) =>
  RESERVED_PROFILE_PROPERTIES.has(name) || DEVICE_PROPERTY_PREFIXES.some((prefix) => name.startsWith(prefix));

export interface RecordContext {
  scope: ProfileScope;
  projectId: number;
  /** strict=1: a custom `$` name fails its record; otherwise it is stored as sent, as the real API does. */
  strict: boolean;
  nowMs: number;
  /** The profile limits: a record that would pass one on its own is refused here. */
  limits: ProfileLimits;
}

/** What geolocation may use: `$ip` (false when `$ip` is "0": never locate), `$latitude` and `$longitude`. */
export interface LocationHint {
  ip?: string | false;
  latitude?: number;
  longitude?: number;
}

export type RecordOutcome =
  { ok: true; update: ProfileUpdate; location: LocationHint } | { ok: false; message: string };

const isTrue = (value: unknown) => value === true || value === 'true';

/** Applies every rule that needs no stored state to one record as sent. The `$token` is the caller's. */
export function validateProfileRecord(raw: unknown, context: RecordContext): RecordOutcome {
  try {
    if (!isPlainObject(raw)) throw new InvalidRecord('each update must be a JSON object');
    const identity =
      context.scope === 'user' ? userIdentity(raw, context.projectId) : groupIdentity(raw, context.projectId);
    const operation = readOperation(raw, context);
    const update: ProfileUpdate = { ...identity, ...operation, ...readTiming(raw, context.nowMs) };
    return { ok: true, update, location: readLocation(raw) };
  } catch (error) {
    if (!(error instanceof InvalidRecord)) throw error;
    return { ok: false, message: error.message };
  }
}

/** The identity fields as sent, to name a failed record in strict replies. */
export function recordIdentity(raw: unknown, scope: ProfileScope): Record<string, string> {
  if (!isPlainObject(raw)) return {};
  const fields = scope === 'user' ? ['$distinct_id'] : ['$group_key', '$group_id'];
  return Object.fromEntries(
    fields.filter((f) => typeof raw[f] === 'string' || typeof raw[f] === 'number').map((f) => [f, String(raw[f])]),
  );
}

function readId(value: unknown, field: string): string {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || text === '') throw new InvalidRecord(`${field}, missing or empty`);
  if (text.length > EVENT_LIMITS.maxStringLength) throw new InvalidRecord(`${field} is longer than 255 characters`);
  return storableText(text);
}

function userIdentity(raw: Record<string, unknown>, projectId: number): ProfileIdentity {
  const profileId = readId(raw.$distinct_id, '$distinct_id');
  // SDK placeholders ("anonymous", "null", …) would merge strangers into one profile.
  if (FORBIDDEN_IDS.has(profileId.trim().toLowerCase()))
    throw new InvalidRecord(`"${profileId}" is not allowed as $distinct_id`);
  return { projectId, groupKey: USER_PROFILES, profileId };
}

function groupIdentity(raw: Record<string, unknown>, projectId: number): ProfileIdentity {
  const groupKey = readId(raw.$group_key, '$group_key');
  return { projectId, groupKey, profileId: readId(raw.$group_id, '$group_id') };
}

function readOperation(raw: Record<string, unknown>, context: RecordContext): ProfileOperation {
  const allowed = context.scope === 'user' ? USER_OPERATIONS : GROUP_OPERATIONS;
  const present = USER_OPERATIONS.filter((op) => Object.hasOwn(raw, op));
  if (present.length === 0) throw new InvalidRecord(`no operation: send one of ${allowed.join(', ')}`);
  if (present.length > 1)
    throw new InvalidRecord(`more than one operation (${present.join(', ')}): send one per record`);
  const [op] = present;
  if (!allowed.includes(op))
    throw new InvalidRecord(`${op} is not an operation of group profiles: use one of ${allowed.join(', ')}`);
  const operation = OPERATION_READERS[op](raw[op], raw, context);
  checkSize(operation, context.limits);
  return operation;
}

/**
 * What the writer would refuse whatever the profile holds, refused before it is acknowledged: with
 * a broker the gateway never sees the stored profile, and the writer could only dead-letter it.
 * A `$union` list counts as sent; `$remove` and `$add` never grow a property past its limit.
 */
function checkSize(operation: ProfileOperation, { maxPropertyBytes, maxProfileBytes }: ProfileLimits): void {
  if (!('properties' in operation)) return;
  const { op } = operation;
  let total = 1;
  for (const [name, value] of Object.entries(operation.properties)) {
    // An appended item sits in a list: its brackets count.
    const bytes = jsonBytes(value) + (op === '$append' ? 2 : 0);
    if (op !== '$remove' && bytes > maxPropertyBytes)
      throw new InvalidRecord(
        `${op}.${name} would hold ${bytes} bytes; a profile property holds at most ${maxPropertyBytes}`,
      );
    total += jsonBytes(name) + bytes + 2;
  }
  if (op !== '$remove' && total > maxProfileBytes)
    throw new InvalidRecord(`${op} holds ${total} bytes of properties; a profile holds at most ${maxProfileBytes}`);
}

type OperationReader = (value: unknown, raw: Record<string, unknown>, context: RecordContext) => ProfileOperation;

const OPERATION_READERS: Record<OperationName, OperationReader> = {
  $set: (value, _, context) => ({ op: '$set', properties: readProperties(value, '$set', context, cleanValue) }),
  $set_once: (value, _, context) => ({
    op: '$set_once',
    properties: readProperties(value, '$set_once', context, cleanValue),
  }),
  $append: (value, _, context) => ({
    op: '$append',
    properties: readProperties(value, '$append', context, cleanValue),
  }),
  $remove: (value, _, context) => ({
    op: '$remove',
    properties: readProperties(value, '$remove', context, cleanValue),
  }),
  $add: (value, _, context) => ({ op: '$add', properties: readProperties(value, '$add', context, readNumber) }),
  $union: (value, _, context) => ({ op: '$union', properties: readProperties(value, '$union', context, readList) }),
  $unset: (value) => ({ op: '$unset', names: readNames(value) }),
  $delete: (_, raw) => ({ op: '$delete', ignoreAlias: isTrue(raw.$ignore_alias) }),
};

function readProperties<T>(
  value: unknown,
  op: string,
  context: RecordContext,
  read: (value: unknown, path: string) => T,
): Record<string, T> {
  if (!isPlainObject(value)) throw new InvalidRecord(`${op} must be an object of properties`);
  const entries = Object.entries(value);
  if (entries.length > EVENT_LIMITS.maxProperties)
    throw new InvalidRecord(`${op} has ${entries.length} properties; fewer than 255 allowed`);
  return Object.fromEntries(
    entries.map(([name, item]) => [propertyName(name, context.strict), read(item, `${op}.${name}`)]),
  );
}

function propertyName(name: string, strict: boolean): string {
  checkName(name);
  if (strict && name.startsWith('$') && !isReservedProfileProperty(name)) {
    throw new InvalidRecord(`"${name}": custom property names must not start with $`);
  }
  return storableText(name);
}

function checkName(name: string): void {
  if (name === '') throw new InvalidRecord('property names must not be empty');
  if (name.length > EVENT_LIMITS.maxStringLength)
    throw new InvalidRecord('property names must be at most 255 characters');
  // Would reach the prototype of the plain objects profiles are kept in.
  if (name === '__proto__') throw new InvalidRecord('"__proto__" is not allowed as a property name');
}

function readNumber(value: unknown, path: string): number {
  const number = typeof value === 'number' || JSON.isRawJSON(value) ? numericValue(value as PropertyValue) : undefined;
  if (number === undefined || !Number.isFinite(number)) throw new InvalidRecord(`${path} must be a number`);
  return number;
}

function readList(value: unknown, path: string): PropertyValue[] {
  if (!Array.isArray(value)) throw new InvalidRecord(`${path} must be a list`);
  return cleanValue(value, path) as PropertyValue[];
}

function readNames(value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((name): name is string => typeof name === 'string')) {
    throw new InvalidRecord('$unset must be a list of property names');
  }
  value.forEach(checkName);
  return value.map(storableText);
}

function readTiming(raw: Record<string, unknown>, nowMs: number): UpdateTiming {
  const ignoreTime = isTrue(raw.$ignore_time);
  if (raw.$time === undefined || raw.$time === null) return { timeMs: nowMs, timed: false, ignoreTime };
  const timeMs = parseUpdateTime(raw.$time, nowMs);
  if (timeMs === undefined)
    throw new InvalidRecord('$time must be seconds or milliseconds since the epoch, or an ISO date');
  return { timeMs, timed: true, ignoreTime };
}

function readCoordinate(value: unknown, name: string, limit: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > limit) {
    throw new InvalidRecord(`${name} must be a number from -${limit} to ${limit}`);
  }
  return value;
}

function readLocation(raw: Record<string, unknown>): LocationHint {
  const latitude = readCoordinate(raw.$latitude, '$latitude', 90);
  const longitude = readCoordinate(raw.$longitude, '$longitude', 180);
  if ((latitude === undefined) !== (longitude === undefined))
    throw new InvalidRecord('$latitude and $longitude go together');
  const ip =
    raw.$ip === 0 || raw.$ip === '0' ? false : typeof raw.$ip === 'string' && raw.$ip !== '' ? raw.$ip : undefined;
  return { ip, latitude, longitude };
}
