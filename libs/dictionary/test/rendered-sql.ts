import { projectScope } from '@analytics/tenancy';
import type { RenderedQuery } from '../../../test/rendered-sql/rendered-query';
import { seenEventsSql } from '../src/seen-events.repository';

/** The seen-events listing's query, committed as libs/dictionary/sql/ (npm run sql:render). */
export const SEEN_EVENTS_SQL: RenderedQuery[] = [
  {
    builder: 'SeenEventsRepository.since (seenEventsSql)',
    inputs: 'project 1; since 2024-03-04',
    query: seenEventsSql(projectScope(1), 1_709_510_400_000),
  },
];
