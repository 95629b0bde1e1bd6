import { Column, eq, SQL, sql, SQLWrapper } from 'drizzle-orm';
import { isProjectScope, ProjectScope } from './project-scope';

/**
 * The Postgres twin of `chSql`: drizzle's own `sql` tag, in which a {@link ProjectScope} slot
 * writes `project_id = $n` itself. Every other slot is drizzle's: a value is bound as a parameter
 * (text never becomes SQL), a drizzle `SQL`, column or table is written in place. `sql.raw` stays
 * the one way to write text, and test/architecture/tenant-predicate.spec.ts keeps the tenant
 * predicate out of hand-written SQL.
 */
export function pgSql(strings: TemplateStringsArray, ...slots: unknown[]): SQL {
  return sql(strings, ...slots.map((slot) => (isProjectScope(slot) ? pgScope(slot) : slot)));
}

/** The tenant predicate, on a table alias when given: `"a".project_id = $n`. */
export function pgScope(scope: ProjectScope, alias?: string): SQL {
  if (!isProjectScope(scope)) throw new TypeError('pgScope takes a ProjectScope');
  if (alias === undefined) return sql`project_id = ${scope.projectId}`;
  return sql`${sql.identifier(alias)}.project_id = ${scope.projectId}`;
}

/** For drizzle's query builder: `where(and(pgScopeEq(table.projectId, scope), …))`. */
export function pgScopeEq(column: Column | SQLWrapper, scope: ProjectScope): SQL {
  if (!isProjectScope(scope)) throw new TypeError('pgScopeEq takes a ProjectScope');
  return eq(column, scope.projectId);
}

/**
 * The tenant predicate of one statement over several projects' rows: `"a".project_id = any(…)`, the
 * ids those of `scopes`. With `keysAlias`, each row is also matched to the keys of its own project in
 * that recordset (`"a".project_id = "k".project_id`), whose project ids the caller took from the same
 * scopes: so a batch of many projects is one statement, not one per project.
 */
export function pgScopes(scopes: readonly ProjectScope[], alias: string, keysAlias?: string): SQL {
  if (!scopes.length || !scopes.every(isProjectScope)) throw new TypeError('pgScopes takes one or more ProjectScopes');
  const ids = [...new Set(scopes.map((scope) => scope.projectId))];
  const column = sql`${sql.identifier(alias)}.project_id`;
  const predicate = sql`${column} = any(${`{${ids.join(',')}}`}::int[])`;
  return keysAlias === undefined
    ? predicate
    : sql`${predicate} and ${column} = ${sql.identifier(keysAlias)}.project_id`;
}
