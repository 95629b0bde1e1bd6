import { compileWhere, parseExpression, profilesScope } from '@analytics/expression';
import { chParam, chSql, projectScope } from '@analytics/tenancy';
import type { RenderedQuery } from '../../../test/rendered-sql/rendered-query';
import { mirrorCountSql, mirrorPageSql, PROFILES_MIRROR_INSERT } from '../src/profiles-mirror-sql';

/** The profile mirror's statements for fixed inputs, committed as libs/profile-store/sql/ (npm run sql:render). */
const scope = projectScope(1);
const snapshotMs = 1_712_102_400_000;
const where = compileWhere(parseExpression('properties["plan"] == "pro"'), profilesScope('properties'), {
  prefix: 'where',
});
/** A cohort's members as the query lib's CohortMembership gives them (a `SELECT distinct_id` fragment). */
const members = chSql`SELECT distinct_id FROM events WHERE ${scope} AND event = ${chParam('Purchased')} GROUP BY distinct_id`;
const users = { scope, groupKey: '', snapshotMs };

export const PROFILES_MIRROR_SQL: RenderedQuery[] = [
  {
    builder: 'ProfilesMirrorRepository.insert (PROFILES_MIRROR_INSERT)',
    inputs: 'the profiles as JSONEachRow lines in the body',
    query: { sql: PROFILES_MIRROR_INSERT, params: {} },
  },
  {
    builder: 'ProfilesMirrorRepository.page (mirrorPageSql)',
    inputs: 'project 1; user profiles as of 2024-04-03; where plan = "pro"; rows 100 to 149',
    query: mirrorPageSql({ ...users, where }, 100, 50),
  },
  {
    builder: 'ProfilesMirrorRepository.page (mirrorPageSql)',
    inputs: 'project 1; group company profiles as of 2024-04-03; ids acme, globex; first 50',
    query: mirrorPageSql({ scope, groupKey: 'company', snapshotMs, profileIds: ['acme', 'globex'] }, 0, 50),
  },
  {
    builder: 'ProfilesMirrorRepository.page (mirrorPageSql)',
    inputs: "project 1; a cohort's members with a profile; first 50",
    query: mirrorPageSql({ ...users, cohort: { members, includeAllUsers: false } }, 0, 50),
  },
  {
    builder: 'ProfilesMirrorRepository.page (mirrorPageSql)',
    inputs: 'project 1; every member of a cohort, with a profile or not; where plan = "pro"; first 50',
    query: mirrorPageSql({ ...users, where, cohort: { members, includeAllUsers: true } }, 0, 50),
  },
  {
    builder: 'ProfilesMirrorRepository.count (mirrorCountSql)',
    inputs: 'project 1; user profiles as of 2024-04-03; where plan = "pro"',
    query: mirrorCountSql({ ...users, where }),
  },
];
