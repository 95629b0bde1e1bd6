import { SQL, sql } from 'drizzle-orm';
import { integer, PgDialect, pgTable, text } from 'drizzle-orm/pg-core';
import { pgScope, pgScopeEq, pgScopes, pgSql } from './postgres-sql';
import { projectScope } from './project-scope';

const dialect = new PgDialect();
const rendered = (query: SQL) => {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return { sql: text, params };
};
const scope = projectScope(7);
const pipelines = pgTable('pipelines', { projectId: integer('project_id').notNull(), name: text('name').notNull() });

describe('pgSql', () => {
  it('writes the project predicate for a scope, and binds every value as drizzle does', () => {
    const query = pgSql`select * from pipelines where ${scope} and name = ${"x' or 1 --"} and state <> 'cancelled'`;

    expect(rendered(query)).toEqual({
      sql: "select * from pipelines where project_id = $1 and name = $2 and state <> 'cancelled'",
      params: [7, "x' or 1 --"],
    });
  });

  it('composes with drizzle fragments, and qualifies the predicate with an alias', () => {
    const tags = sql`select name from tags t where ${pgScope(scope, 't')}`;
    const query = pgSql`select * from annotations a where ${pgScope(scope, 'a')} and a.tag in (${tags})`;

    expect(rendered(query)).toEqual({
      sql: 'select * from annotations a where "a".project_id = $1 and a.tag in (select name from tags t where "t".project_id = $2)',
      params: [7, 7],
    });
  });

  it('gives drizzle query builders the predicate on a column', () => {
    expect(rendered(sql`${pgScopeEq(pipelines.projectId, scope)}`)).toEqual({
      sql: '"pipelines"."project_id" = $1',
      params: [7],
    });
  });

  it('writes one predicate for the rows of several projects, matched to the keys of their own project', () => {
    expect(rendered(sql`${pgScopes([scope, projectScope(3), scope], 'p')}`)).toEqual({
      sql: '"p".project_id = any($1::int[])',
      params: ['{7,3}'],
    });
    expect(rendered(sql`${pgScopes([scope], 'p', 'k')}`)).toEqual({
      sql: '"p".project_id = any($1::int[]) and "p".project_id = "k".project_id',
      params: ['{7}'],
    });
  });

  it('refuses what only looks like a scope, and a statement of no project', () => {
    expect(() => pgScope({ projectId: 7 } as never)).toThrow(TypeError);
    expect(() => pgScopeEq(pipelines.projectId, { projectId: 7 } as never)).toThrow(TypeError);
    expect(() => pgScopes([scope, { projectId: 8 } as never], 'p')).toThrow(TypeError);
    expect(() => pgScopes([], 'p')).toThrow(TypeError);
  });
});
