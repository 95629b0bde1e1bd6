import { projectScope } from '@analytics/tenancy';
import type { RenderedQuery } from '../../../test/rendered-sql/rendered-query';
import { knownTimeZoneSql, projectHasEventsSql } from '../src/project-events.repository';

/** The project settings' reads of ClickHouse, committed as libs/management/sql/ (npm run sql:render). */
export const PROJECT_EVENTS_SQL: RenderedQuery[] = [
  {
    builder: 'ProjectEventsRepository.hasEvents (projectHasEventsSql)',
    inputs: 'project 1',
    query: projectHasEventsSql(projectScope(1)),
  },
  {
    builder: 'ProjectEventsRepository.knowsTimeZone (knownTimeZoneSql)',
    inputs: 'Europe/Berlin',
    query: knownTimeZoneSql('Europe/Berlin'),
  },
];
