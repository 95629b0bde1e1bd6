export { ChBoundQuery, chCompiled, chIdent, chJoin, chParam, chScope, ChSlot, ChSql, chSql, ChSqlError, ChType, renderChSql } from './clickhouse-sql';
export { pgScope, pgScopeEq, pgSql } from './postgres-sql';
export { isProjectScope, ProjectScope, projectScope } from './project-scope';
