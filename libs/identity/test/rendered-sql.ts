import { projectScope, renderChSql } from '@analytics/tenancy';
import type { RenderedQuery } from '../../../test/rendered-sql/rendered-query';
import {
  clusterRowsSql,
  forgetLookupSql,
  IDENTITY_MAP_INSERT,
  LOOKUP_REWRITE,
  lookupInsertSql,
  lookupRowsSql,
  mergedRowsSql,
} from '../src/identity-map-sql';

/** The identity lib's SQL for fixed inputs, committed as libs/identity/sql/*.sql (npm run sql:render). */
const scope = projectScope(1);
const ids = ['device-1', 'user@example.com'];
const members = [
  { distinctId: 'device-1', personId: 'user@example.com', identifiedMs: 1_712_000_000_000, linkedMs: 0 },
  { distinctId: 'user@example.com', personId: 'user@example.com', identifiedMs: 1_712_000_000_000, linkedMs: 0 },
];

export const IDENTITY_MAP_SQL: RenderedQuery[] = [
  {
    builder: 'IdentityRepository.load (clusterRowsSql)',
    inputs: `project 1; ids ${ids.join(', ')}`,
    query: clusterRowsSql(scope, ids),
  },
  {
    builder: 'IdentityRepository.write (IDENTITY_MAP_INSERT)',
    inputs: 'the rows as JSONEachRow lines in the body',
    query: { sql: IDENTITY_MAP_INSERT, params: {} },
  },
  {
    builder: 'IdentityRepository.write (lookupInsertSql)',
    inputs: 'project 1; device-1 merged into user@example.com',
    query: lookupInsertSql(scope, members),
  },
  {
    builder: 'IdentityRepository.resolve (mergedRowsSql)',
    inputs: `project 1; ids ${ids.join(', ')}`,
    query: mergedRowsSql(scope, ids),
  },
  {
    builder: 'IdentityRepository.rewriteLookup (LOOKUP_REWRITE)',
    inputs: 'none',
    query: { sql: LOOKUP_REWRITE, params: {} },
  },
  {
    builder: 'IdentityRepository.forget (forgetLookupSql)',
    inputs: `project 1; ids ${ids.join(', ')}`,
    query: forgetLookupSql(scope, ids),
  },
  {
    builder: 'IdentityRepository.lookupRows (lookupRowsSql)',
    inputs: `project 1; ids ${ids.join(', ')}`,
    query: lookupRowsSql(scope, ids),
  },
];
