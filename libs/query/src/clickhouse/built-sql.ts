import { chCompiled, ChSql } from '@analytics/tenancy';

/**
 * SQL text this lib's code built (column lists, lambdas, constants, compiled expressions), with the
 * values of the named placeholders it writes, as a fragment for `chSql`. Never user text: values
 * travel in `params`, and the project predicate is the scope's (test/architecture/tenant-predicate.spec.ts).
 */
export function builtSql(sql: string, params: Readonly<Record<string, unknown>> = {}): ChSql {
  return chCompiled({ sql, params });
}
