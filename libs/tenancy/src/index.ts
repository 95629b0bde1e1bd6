export {
  ChBoundQuery,
  chCompiled,
  chIdent,
  chJoin,
  chParam,
  chScope,
  chScopes,
  ChSql,
  chSql,
  renderChSql,
} from './clickhouse-sql';
export { pgScope, pgScopeEq, pgScopes, pgSql } from './postgres-sql';
export {
  isProjectId,
  isTimeZoneName,
  isRetentionDays,
  MAX_RETENTION_DAYS,
  ProjectScope,
  projectScope,
  ScopedRows,
} from './project-scope';
