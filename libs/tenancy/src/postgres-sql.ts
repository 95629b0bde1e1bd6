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
