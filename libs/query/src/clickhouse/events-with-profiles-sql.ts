import { resolvedEventsSql } from '@analytics/event-store';
import { userProfilesSql } from '@analytics/profile-store';
import { chIdent, chSql, ChSql, ProjectScope } from '@analytics/tenancy';
import { USER_PROPERTIES_COLUMN } from '../expressions/query-expressions';

/**
 * A report's events with their person's profile beside each (`user_properties`: the profile's JSON
 * properties, '' for a person without one, which `user["…"]` reads as undefined), for the reports
 * whose `where` or `on` reads `user["…"]` (docs/queries.md, "Profile properties in event reports").
 *
 * The profile belongs to the person's canonical id, so the events are the resolved ones (the
 * identity_map join once an id of the project is merged) and the person column is `distinct_id`.
 * The join's right side is only the profiles of the people with events in `reads` (the report's
 * own range and event names): the profile mirror is read by its primary key for those ids, never
 * whole, and only their properties are held in the join's hash table.
 */
export function eventsWithProfilesSql(
  scope: ProjectScope,
  resolve: boolean,
  reads: ChSql,
): { events: ChSql; user: string } {
  const events = resolvedEventsSql(scope, resolve);
  const people = chSql`SELECT DISTINCT distinct_id FROM ${events} WHERE ${scope} AND ${reads}`;
  const profiles = chSql`SELECT profile_id, properties ${userProfilesSql(scope)} AND profile_id IN (${people})`;
  return {
    events: chSql`(SELECT ev.*, p.properties AS ${chIdent(USER_PROPERTIES_COLUMN)}
      FROM (SELECT * FROM ${events}) AS ev LEFT ANY JOIN (${profiles}) AS p ON p.profile_id = ev.distinct_id)`,
    user: 'distinct_id',
  };
}
