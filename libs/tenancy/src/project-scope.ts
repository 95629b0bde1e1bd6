/**
 * The project a query acts on, as a value only trusted code creates (test/architecture/project-scope.spec.ts
 * names the files that may call `projectScope`): authentication, where a request's access to the
 * project is established; the writers, which read messages the gateway authenticated; and jobs that
 * run for a row stored under a project. Repositories take it instead of a bare project id, and the
 * SQL tags write the `project_id` predicate from it, so a query cannot name another tenant by a
 * forgotten or mistyped predicate.
 */

/** Not exported: no code outside this file can write an object literal that is a ProjectScope. */
const PROJECT_SCOPE: unique symbol = Symbol('ProjectScope');

export interface ProjectScope {
  readonly projectId: number;
  /**
   * The project's event retention in days (docs/retention.md), null to keep events for ever: the
   * event store's read sources hide older events by it, so every reader of a scope made where the
   * project's settings are known (a request's, a job's) stops at the same line.
   */
  readonly eventsRetentionDays: number | null;
  /**
   * The project's time zone (an IANA name, `UTC` by default; docs/queries.md, "Time zone"): the
   * reports' days, weeks and months are its calendar's. Raw exports and retention lines ignore it.
   */
  readonly timeZone: string;
  readonly [PROJECT_SCOPE]: true;
}

/** Project ids are Postgres `serial`s (an int; ClickHouse's UInt32 holds them too). */
const MAX_PROJECT_ID = 2_147_483_647;

/**
 * Whether `value` can be a project's id. Decoders of messages and dead letters check it, so that an id
 * no project can have is refused as malformed (dead-lettered, skipped) rather than met by `projectScope`.
 */
export function isProjectId(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_PROJECT_ID;
}

/** The longest event retention a project may set, in days (about a hundred years). */
export const MAX_RETENTION_DAYS = 36_500;

/** Whether `value` is a retention a project may set: a whole number of days from 1 to {@link MAX_RETENTION_DAYS}. */
export function isRetentionDays(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_RETENTION_DAYS;
}

/** The time zone of a project that never chose one, and of every project before the setting existed. */
const DEFAULT_TIME_ZONE = 'UTC';

/**
 * Whether `value` is shaped like an IANA zone name (`UTC`, `Europe/Berlin`, `America/Argentina/Salta`,
 * `Etc/GMT+5`): the scope's cheap guard. Which names a project may choose is the management API's
 * rule (names Node's Intl and ClickHouse both know).
 */
export function isTimeZoneName(value: unknown): value is string {
  return (
    typeof value === 'string' && value.length <= 64 && /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/.test(value)
  );
}

/**
 * The scope of one project; only the files the architecture test allows may call this. Code that
 * reads events passes the project's `eventsRetentionDays`, and code that runs reports its time zone;
 * writers, which only add rows, may leave them out.
 */
export function projectScope(
  projectId: number,
  eventsRetentionDays: number | null = null,
  timeZone: string = DEFAULT_TIME_ZONE,
): ProjectScope {
  if (!isProjectId(projectId)) {
    throw new RangeError(
      `a project scope needs a project id (a whole number from 1 to ${MAX_PROJECT_ID}), got ${projectId}`,
    );
  }
  if (eventsRetentionDays !== null && !isRetentionDays(eventsRetentionDays)) {
    throw new RangeError(
      `a project's retention is a whole number of days from 1 to ${MAX_RETENTION_DAYS}, got ${eventsRetentionDays}`,
    );
  }
  if (!isTimeZoneName(timeZone)) throw new RangeError(`a project's time zone is an IANA name, got ${String(timeZone)}`);
  return Object.freeze({ projectId, eventsRetentionDays, timeZone, [PROJECT_SCOPE]: true as const });
}

/** Whether `value` was made by {@link projectScope} (the tags tell a scope from a value with it). */
export function isProjectScope(value: unknown): value is ProjectScope {
  return typeof value === 'object' && value !== null && (value as Partial<ProjectScope>)[PROJECT_SCOPE] === true;
}

/** One project's rows (keys, ids, records) with that project's scope: a statement over many projects takes a list of them. */
export interface ScopedRows<T> {
  readonly scope: ProjectScope;
  readonly rows: readonly T[];
}
