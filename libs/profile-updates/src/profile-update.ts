import { isProjectId } from '@analytics/tenancy';

/** A property value as `parseJson` reads it: integers beyond 2^53 stay exact, as JSON.rawJSON values. */
export type PropertyValue = null | boolean | number | string | RawJSON | PropertyValue[] | Properties;
export interface Properties {
  [name: string]: PropertyValue;
}

/** The `group_key` of user profiles: group keys are never empty, so '' cannot clash with one. */
export const USER_PROFILES = '';

/** Which profile of a project: a user (`$distinct_id`) or a group (`$group_key` + `$group_id`). */
export interface ProfileKey {
  /** The group key of a group profile; {@link USER_PROFILES} for a user profile. */
  groupKey: string;
  /** `$distinct_id` of a user profile, `$group_id` of a group profile. */
  profileId: string;
}

/** Which profile an update is for: the project and the profile's key in it. */
export interface ProfileIdentity extends ProfileKey {
  projectId: number;
}

export type ProfileOperation =
  | { op: '$set' | '$set_once' | '$append' | '$remove'; properties: Properties }
  | { op: '$add'; properties: Record<string, number> }
  | { op: '$union'; properties: Record<string, PropertyValue[]> }
  | { op: '$unset'; names: string[] }
  /** `$ignore_alias`: only this id's profile goes; otherwise the profile of the id's person (docs/identity.md). */
  | { op: '$delete'; ignoreAlias: boolean };

export type OperationName = ProfileOperation['op'];

export const USER_OPERATIONS: readonly OperationName[] = [
  '$set',
  '$set_once',
  '$add',
  '$union',
  '$append',
  '$remove',
  '$unset',
  '$delete',
];
/** The real API offers groups no `$add` and no `$append`. */
export const GROUP_OPERATIONS: readonly OperationName[] = [
  '$set',
  '$set_once',
  '$unset',
  '$union',
  '$remove',
  '$delete',
];

export interface UpdateTiming {
  /** `$time`, else the time the gateway received the update (ms since the epoch). */
  timeMs: number;
  /** `$time` was given: then an update older than a property's last write leaves that property alone. */
  timed: boolean;
  /** `$ignore_time`: `$last_seen` is left as it is. */
  ignoreTime: boolean;
}

/**
 * One validated update, as the gateway hands it to the writer (through Kafka as JSON): everything
 * the writer needs, so it never looks at the request again.
 */
export type ProfileUpdate = ProfileIdentity &
  ProfileOperation &
  UpdateTiming & {
    /** Properties that geolocation derived from `$ip` or `$latitude`/`$longitude`, set with the update. */
    geo?: Properties;
  };

/** One string per profile, for maps and Kafka keys; the group key's length keeps it unambiguous. */
export function identityKey({ projectId, groupKey, profileId }: ProfileIdentity): string {
  return `${projectId}:${groupKey.length}:${groupKey}:${profileId}`;
}

const isOperation = (value: unknown): value is OperationName => USER_OPERATIONS.includes(value as OperationName);

/**
 * An update back from its Kafka message. The gateway validated it, so only the shape is checked: a
 * message that fails here was not written by a gateway and goes to the dead-letter topic.
 */
export function decodeProfileUpdate(value: unknown): ProfileUpdate {
  const update = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const operand =
    update.op === '$unset'
      ? Array.isArray(update.names)
      : update.op === '$delete' || (typeof update.properties === 'object' && update.properties !== null);
  const wellFormed =
    isProjectId(update.projectId) &&
    typeof update.groupKey === 'string' &&
    typeof update.profileId === 'string' &&
    isOperation(update.op) &&
    operand &&
    Number.isFinite(update.timeMs);
  if (!wellFormed) throw new Error('not a profile update');
  return update as unknown as ProfileUpdate;
}
