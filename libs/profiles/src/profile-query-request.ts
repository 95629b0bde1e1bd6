import { EVENT_LIMITS } from '@analytics/events';
import { ProfilesError, ProfilesErrorCode } from './profiles-error';
import { USER_PROFILES } from './profile-update';

/** The real API's page size, also the most a page may hold. */
export const MAX_PAGE_SIZE = 1000;
const MAX_PROFILE_IDS = 2000;
/** A session id is the snapshot time; a little clock skew between replicas is tolerated. */
const SESSION_CLOCK_SKEW_MS = 60_000;
/** Parameters whose features arrive with the query API: refused, never silently ignored. */
const NOT_YET = ['filter_by_cohort', 'behaviors', 'as_of_timestamp'];

export interface ProfileQueryRequest {
  /** `data_group_id`: the group key whose profiles are queried; '' for user profiles. */
  groupKey: string;
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
  if (!/^\d+$/.test(given) || value < min || value > max) throw invalid(`${name} must be an integer from ${min} to ${max}`);
  return value;
}

function snapshotOf(sessionId: string | undefined, nowMs: number): number {
  if (sessionId === undefined) return nowMs;
  const snapshot = Number(sessionId);
  if (!/^\d{1,15}$/.test(sessionId) || snapshot > nowMs + SESSION_CLOCK_SKEW_MS) {
    throw invalid('session_id is not one this server issued: send the session_id of the first page');
  }
  return snapshot;
}

/** The profile query's parameters (the real API's names), checked. */
export function parseProfileQuery(fields: QueryFields, nowMs: number): ProfileQueryRequest {
  const unsupported = NOT_YET.find((name) => text(fields, name) !== undefined);
  if (unsupported) throw new ProfilesError(ProfilesErrorCode.NotSupported, `${unsupported} is not supported yet`);
  const page = integer(fields, 'page', 0, 0, 1_000_000);
  const sessionId = text(fields, 'session_id');
  if (page > 0 && sessionId === undefined) throw invalid('page > 0 needs the session_id of the first page');
  const single = text(fields, 'distinct_id');
  const many = stringList(fields, 'distinct_ids', MAX_PROFILE_IDS);
  const profileIds = single === undefined && many === undefined ? undefined : [...new Set([...(single === undefined ? [] : [single]), ...(many ?? [])])];
  const groupKey = text(fields, 'data_group_id') ?? USER_PROFILES;
  if (groupKey.length > EVENT_LIMITS.maxStringLength) throw invalid('data_group_id must be at most 255 characters');
  const snapshotMs = snapshotOf(sessionId, nowMs);
  return {
    groupKey,
    profileIds,
    where: text(fields, 'where'),
    outputProperties: stringList(fields, 'output_properties', EVENT_LIMITS.maxProperties),
    page,
    pageSize: integer(fields, 'page_size', MAX_PAGE_SIZE, 1, MAX_PAGE_SIZE),
    snapshotMs,
    sessionId: sessionId ?? String(snapshotMs),
  };
}
