import { chSql, ProjectScope } from '@analytics/tenancy';

// Allowed anywhere: taking a scope and writing the predicate with it.
export const events = (scope: ProjectScope) => chSql`SELECT 1 FROM events WHERE ${scope}`;
