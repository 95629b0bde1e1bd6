export { chCompiled, chIdent, chJoin, chParam, chScope, ChSql, chSql, renderChSql } from './clickhouse-sql';
export { pgScope, pgScopeEq, pgSql } from './postgres-sql';
export { ProjectScope, projectScope } from './project-scope';
