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

/** project_id is a UInt32 in ClickHouse and an int in Postgres: a scope holds an id both can store. */
const MAX_PROJECT_ID = 2 ** 32 - 1;

/** The scope of one project; only the files the architecture test allows may call this. */
export function projectScope(projectId: number): ProjectScope {
  if (!Number.isInteger(projectId) || projectId < 0 || projectId > MAX_PROJECT_ID) {
    throw new RangeError(`a project scope needs a project id (a whole number from 0 to ${MAX_PROJECT_ID}), got ${projectId}`);
  }
  return Object.freeze({ projectId, [PROJECT_SCOPE]: true as const });
}

/** Whether `value` was made by {@link projectScope} (the tags tell a scope from a value with it). */
export function isProjectScope(value: unknown): value is ProjectScope {
  return typeof value === 'object' && value !== null && (value as Partial<ProjectScope>)[PROJECT_SCOPE] === true;
}
