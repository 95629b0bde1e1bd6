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

/** The scope of one project; only the files the architecture test allows may call this. */
export function projectScope(projectId: number): ProjectScope {
  if (!isProjectId(projectId)) {
    throw new RangeError(
      `a project scope needs a project id (a whole number from 1 to ${MAX_PROJECT_ID}), got ${projectId}`,
    );
  }
  return Object.freeze({ projectId, [PROJECT_SCOPE]: true as const });
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
