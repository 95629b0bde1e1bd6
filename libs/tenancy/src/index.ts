export { ChBoundQuery, chCompiled, chIdent, chJoin, chParam, chScope, ChSlot, ChSql, chSql, ChSqlError, ChType, renderChSql, RenderOptions } from './clickhouse-sql';
export { pgScope, pgScopeEq, pgSql } from './postgres-sql';
export { isProjectScope, ProjectScope, projectScope } from './project-scope';
