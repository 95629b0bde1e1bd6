import { PROJECT_ID_PARAMETER, QueryParameterDoc } from '@analytics/http';
import { EVENT_LIMITS } from '@analytics/events';
import { booleanParameter, isDatabaseId } from '@analytics/http';
import { isPlainObject, USER_PROFILES } from '@analytics/profile-updates';
import { CohortDefinition, validateCohortDefinition } from '@analytics/report-definitions';
import { ProfilesError, ProfilesErrorCode } from './profiles-error';

/** The real API's page size, also the most a page may hold. */
export const MAX_PAGE_SIZE = 1000;
const MAX_PROFILE_IDS = 2000;
/** A session id is the snapshot time; a little clock skew between replicas is tolerated. */
const SESSION_CLOCK_SKEW_MS = 60_000;
/** `filter_by_cohort`: a saved cohort by id, or a definition sent inline (`raw_cohort`, our definition shape). */
export type CohortFilter = { id: number } | { definition: CohortDefinition };

export interface ProfileQueryRequest {
  /** `data_group_id`: the group key whose profiles are queried; '' for user profiles. */
  groupKey: string;
  /** `filter_by_cohort`: only the cohort's members (user profiles only). */
  cohort?: CohortFilter;
  /** With a cohort: members without a profile appear too, with empty `$properties` (the real API's default). */
  includeAllUsers: boolean;
  /** `distinct_id` and `distinct_ids` together. */
  profileIds?: string[];
  where?: string;
  outputProperties?: string[];
  page: number;
  pageSize: number;
  /** The session's snapshot time: profiles created later never appear in it, so its pages never shift. */
  snapshotMs: number;
  /** Echoed back so every page of a session carries the same id. */
  sessionId: string;
}

/** Query parameters and form or JSON body fields; JSON bodies may give lists as lists. */
export type QueryFields = Record<string, unknown>;

const invalid = (message: string) => new ProfilesError(ProfilesErrorCode.InvalidQuery, message);

function text(fields: QueryFields, name: string): string | undefined {
  const value = fields[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw invalid(`${name} must be a string`);
}

/** A list of strings, given as a JSON array (as the real API takes it) or as a list in a JSON body. */
function stringList(fields: QueryFields, name: string, max: number): string[] | undefined {
  let value = fields[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw invalid(`${name} must be a JSON array of strings`);
    }
  }
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' || typeof item === 'number')) {
    throw invalid(`${name} must be a JSON array of strings`);
  }
  if (value.length > max) throw invalid(`${name} may hold at most ${max} items`);
  return value.map(String);
}

function integer(fields: QueryFields, name: string, fallback: number, min: number, max: number): number {
  const given = text(fields, name);
  if (given === undefined) return fallback;
  const value = Number(given);
  if (!/^\d+$/.test(given) || value < min || value > max)
    throw invalid(`${name} must be an integer from ${min} to ${max}`);
  return value;
}

function flag(fields: QueryFields, name: string, fallback: boolean): boolean {
  const value = booleanParameter(text(fields, name), fallback);
  if (value === undefined) throw invalid(`${name} must be true or false`);
  return value;
}

/** A `raw_cohort`: `{"where": "<profile expression>"}` or `{"behavior": {event, where?, min_count, last_days}}`, checked like a saved one. */
function rawCohort(raw: unknown): CohortDefinition {
  const shape =
    'filter_by_cohort.raw_cohort must be {"where": "<expression>"} or {"behavior": {"event", "where"?, "min_count", "last_days"}}';
  if (!isPlainObject(raw)) throw invalid(shape);
  const { where, behavior } = raw;
  if (where !== undefined && typeof where !== 'string') throw invalid(shape);
  if (behavior !== undefined) {
    if (
      !isPlainObject(behavior) ||
      typeof behavior.event !== 'string' ||
      (behavior.where !== undefined && typeof behavior.where !== 'string')
    )
      throw invalid(shape);
    if (typeof behavior.min_count !== 'number' || typeof behavior.last_days !== 'number') throw invalid(shape);
  }
  // The definition rules (one of the two, valid expressions, bounds) answer 400 in the reports lib's words.
  return validateCohortDefinition(raw as Parameters<typeof validateCohortDefinition>[0]);
}

/** `filter_by_cohort`: a JSON object with the saved cohort's `id`, or with `raw_cohort`. */
function cohortFilter(fields: QueryFields): CohortFilter | undefined {
  let value = fields.filter_by_cohort;
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw invalid('filter_by_cohort must be a JSON object such as {"id": 12}');
    }
  }
  if (!isPlainObject(value)) throw invalid('filter_by_cohort must be a JSON object such as {"id": 12}');
  if (value.raw_cohort !== undefined) return { definition: rawCohort(value.raw_cohort) };
  const id = typeof value.id === 'string' && /^\d+$/.test(value.id) ? Number(value.id) : value.id;
  if (typeof id !== 'number' || !isDatabaseId(id))
    throw invalid('filter_by_cohort.id must be a cohort id (a positive integer)');
  return { id };
}

/**
 * The session's snapshot: the session id's time when paging; else `as_of_timestamp` (unix seconds,
 * no later than now); else now.
 */
function snapshotOf(sessionId: string | undefined, asOfSeconds: number | undefined, nowMs: number): number {
  if (sessionId === undefined) return asOfSeconds === undefined ? nowMs : Math.min(asOfSeconds * 1000, nowMs);
  const snapshot = Number(sessionId);
  if (!/^\d{1,15}$/.test(sessionId) || snapshot > nowMs + SESSION_CLOCK_SKEW_MS) {
    throw invalid('session_id is not one this server issued: send the session_id of the first page');
  }
  return snapshot;
}

/** The profile query's parameters (the real API's names), checked. */
export function parseProfileQuery(fields: QueryFields, nowMs: number): ProfileQueryRequest {
  if (text(fields, 'behaviors') !== undefined) {
    throw new ProfilesError(
      ProfilesErrorCode.NotSupported,
      'behaviors is not supported: save a behaviour cohort and send filter_by_cohort={"id": <cohort id>}',
    );
  }
  const page = integer(fields, 'page', 0, 0, 1_000_000);
  const sessionId = text(fields, 'session_id');
  if (page > 0 && sessionId === undefined) throw invalid('page > 0 needs the session_id of the first page');
  const single = text(fields, 'distinct_id');
  const many = stringList(fields, 'distinct_ids', MAX_PROFILE_IDS);
  const profileIds =
    single === undefined && many === undefined
      ? undefined
      : [...new Set([...(single === undefined ? [] : [single]), ...(many ?? [])])];
  const groupKey = text(fields, 'data_group_id') ?? USER_PROFILES;
  if (groupKey.length > EVENT_LIMITS.maxStringLength) throw invalid('data_group_id must be at most 255 characters');
  const cohort = cohortFilter(fields);
  if (cohort && groupKey !== USER_PROFILES)
    throw invalid('filter_by_cohort reads user profiles: it cannot be combined with data_group_id');
  const asOf = text(fields, 'as_of_timestamp');
  if (asOf !== undefined && !/^\d{1,11}$/.test(asOf)) throw invalid('as_of_timestamp must be a unix time in seconds');
  const snapshotMs = snapshotOf(sessionId, asOf === undefined ? undefined : Number(asOf), nowMs);
  return {
    groupKey,
    cohort,
    includeAllUsers: flag(fields, 'include_all_users', true),
    profileIds,
    where: text(fields, 'where'),
    outputProperties: stringList(fields, 'output_properties', EVENT_LIMITS.maxProperties),
    page,
    pageSize: integer(fields, 'page_size', MAX_PAGE_SIZE, 1, MAX_PAGE_SIZE),
    snapshotMs,
    sessionId: sessionId ?? String(snapshotMs),
  };
}

/** The profile query's parameters (query string or form fields), for the OpenAPI document. */
export const PROFILE_QUERY_PARAMETERS: readonly QueryParameterDoc[] = [
  PROJECT_ID_PARAMETER,
  {
    name: 'distinct_id',
    description: 'One profile (any id of an identity cluster: its one profile comes back).',
    example: 'user-42',
  },
  {
    name: 'distinct_ids',
    description: `A JSON array of at most ${MAX_PROFILE_IDS} ids.`,
    example: '["user-42","user-43"]',
  },
  {
    name: 'data_group_id',
    description: "A group key: query that group's profiles instead of user profiles.",
    example: 'company_id',
  },
  {
    name: 'where',
    description: 'A filter expression over profile properties, e.g. properties["plan"] == "pro".',
    example: 'properties["plan"] == "pro"',
  },
  {
    name: 'output_properties',
    description: 'A JSON array of the property names to return (default: all).',
    example: '["$email","plan"]',
  },
  {
    name: 'filter_by_cohort',
    description: 'The members of a saved cohort: {"id": <cohort id>}, or {"raw_cohort": …}.',
    example: '{"id":1}',
  },
  {
    name: 'include_all_users',
    type: 'boolean',
    description: 'With filter_by_cohort: members without a profile too, with empty $properties; default true.',
    example: 'true',
  },
  {
    name: 'as_of_timestamp',
    type: 'integer',
    description: 'Profiles as they were at this unix time (seconds).',
    example: '1767225600',
  },
  {
    name: 'page',
    type: 'integer',
    description: "The page, from 0; pages after the first need the first page's session_id.",
    example: '0',
  },
  {
    name: 'page_size',
    type: 'integer',
    description: `Profiles per page (1 to ${MAX_PAGE_SIZE}, default ${MAX_PAGE_SIZE}).`,
    example: '100',
  },
  { name: 'session_id', description: 'The session_id of the first page: later pages read the same snapshot.' },
];
