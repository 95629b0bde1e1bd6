import { DELETION_SQL, RETRIEVAL_SQL } from '../../libs/compliance/test/rendered-sql';
import { SEEN_EVENTS_SQL } from '../../libs/dictionary/test/rendered-sql';
import {
  EVENTS_DELETION_SQL,
  EVENTS_INSERT_SQL,
  EVENTS_RETENTION_SQL,
  RESOLVED_EVENTS_SQL,
} from '../../libs/event-store/test/rendered-sql';
import { EXPORT_SQL } from '../../libs/export/test/rendered-sql';
import { IDENTITY_MAP_SQL } from '../../libs/identity/test/rendered-sql';
import { PROJECT_EVENTS_SQL } from '../../libs/management/test/rendered-sql';
import { PIPELINE_EXPORT_SQL } from '../../libs/pipelines/test/rendered-sql';
import { PROFILES_MIRROR_SQL } from '../../libs/profile-store/test/rendered-sql';
import {
  ADDICTION_SQL,
  COHORT_MEMBERS_SQL,
  EVENT_CATALOG_SQL,
  FUNNEL_SQL,
  INSIGHTS_SQL,
  NUMERIC_BUCKETS_SQL,
  NUMERIC_SUM_SQL,
  PROFILE_CATALOG_SQL,
  RETENTION_SQL,
  SEGMENTATION_SQL,
} from '../../libs/query/test/rendered-sql';
import { FLOWS_SQL, STREAM_SQL } from '../../libs/query/test/flows-rendered-sql';
import { USAGE_SQL } from '../../libs/usage/test/rendered-sql';
import { IMPORTED_DATA_SQL } from '../../libs/warehouse-imports/test/rendered-sql';
import { RenderedSqlFile } from './rendered-query';

/**
 * Every ClickHouse builder and repository whose SQL is committed, rendered, one .sql file each
 * (`npm run sql:render` writes them, rendered-sql.spec.ts fails when one differs). A builder that
 * moves to another lib moves its row: the import above, `file` and `source`.
 */
export const RENDERED_SQL_FILES: readonly RenderedSqlFile[] = [
  {
    file: 'libs/compliance/sql/deletion.repository.sql',
    source: 'libs/compliance/src/deletion-sql.ts',
    queries: DELETION_SQL,
  },
  {
    file: 'libs/compliance/sql/retrieval.repository.sql',
    source: 'libs/compliance/src/retrieval-sql.ts',
    queries: RETRIEVAL_SQL,
  },
  {
    file: 'libs/dictionary/sql/seen-events.repository.sql',
    source: 'libs/dictionary/src/seen-events.repository.ts',
    queries: SEEN_EVENTS_SQL,
  },
  {
    file: 'libs/event-store/sql/events-deletion-sql.sql',
    source: 'libs/event-store/src/events-deletion-sql.ts',
    queries: EVENTS_DELETION_SQL,
  },
  {
    file: 'libs/event-store/sql/events-retention-sql.sql',
    source: 'libs/event-store/src/events-retention-sql.ts',
    queries: EVENTS_RETENTION_SQL,
  },
  {
    file: 'libs/event-store/sql/events.repository.sql',
    source: 'libs/event-store/src/events.repository.ts',
    queries: EVENTS_INSERT_SQL,
  },
  {
    file: 'libs/event-store/sql/resolved-events-sql.sql',
    source: 'libs/event-store/src/resolved-events-sql.ts',
    queries: RESOLVED_EVENTS_SQL,
  },
  { file: 'libs/export/sql/export.repository.sql', source: 'libs/export/src/export-sql.ts', queries: EXPORT_SQL },
  {
    file: 'libs/identity/sql/identity.repository.sql',
    source: 'libs/identity/src/identity-map-sql.ts',
    queries: IDENTITY_MAP_SQL,
  },
  {
    file: 'libs/management/sql/project-events.repository.sql',
    source: 'libs/management/src/project-events.repository.ts',
    queries: PROJECT_EVENTS_SQL,
  },
  {
    file: 'libs/pipelines/sql/pipeline-export.repository.sql',
    source: 'libs/pipelines/src/pipeline-export-sql.ts',
    queries: PIPELINE_EXPORT_SQL,
  },
  {
    file: 'libs/profile-store/sql/profiles-mirror.repository.sql',
    source: 'libs/profile-store/src/profiles-mirror-sql.ts',
    queries: PROFILES_MIRROR_SQL,
  },
  { file: 'libs/query/sql/funnel-sql.sql', source: 'libs/query/src/funnels/funnel-sql.ts', queries: FUNNEL_SQL },
  { file: 'libs/query/sql/flows-sql.sql', source: 'libs/query/src/flows/flows-sql.ts', queries: FLOWS_SQL },
  { file: 'libs/query/sql/stream-sql.sql', source: 'libs/query/src/stream/stream-sql.ts', queries: STREAM_SQL },
  {
    file: 'libs/query/sql/retention-sql.sql',
    source: 'libs/query/src/retention/retention-sql.ts',
    queries: RETENTION_SQL,
  },
  { file: 'libs/query/sql/addiction.sql', source: 'libs/query/src/retention/addiction.ts', queries: ADDICTION_SQL },
  {
    file: 'libs/query/sql/segmentation-sql.sql',
    source: 'libs/query/src/segmentation/segmentation-sql.ts',
    queries: SEGMENTATION_SQL,
  },
  {
    file: 'libs/query/sql/numeric-buckets.sql',
    source: 'libs/query/src/segmentation/numeric-buckets.ts',
    queries: NUMERIC_BUCKETS_SQL,
  },
  {
    file: 'libs/query/sql/numeric-sum.sql',
    source: 'libs/query/src/segmentation/numeric-sum.ts',
    queries: NUMERIC_SUM_SQL,
  },
  { file: 'libs/query/sql/insights-sql.sql', source: 'libs/query/src/insights/insights-sql.ts', queries: INSIGHTS_SQL },
  {
    file: 'libs/query/sql/event-catalog-sql.sql',
    source: 'libs/query/src/events/event-catalog-sql.ts',
    queries: EVENT_CATALOG_SQL,
  },
  {
    file: 'libs/query/sql/profile-catalog-sql.sql',
    source: 'libs/query/src/profiles/profile-catalog-sql.ts',
    queries: PROFILE_CATALOG_SQL,
  },
  {
    file: 'libs/query/sql/cohort-members-sql.sql',
    source: 'libs/query/src/cohorts/cohort-members-sql.ts',
    queries: COHORT_MEMBERS_SQL,
  },
  { file: 'libs/usage/sql/usage-sql.sql', source: 'libs/usage/src/usage-sql.ts', queries: USAGE_SQL },
  {
    file: 'libs/warehouse-imports/sql/imported-data.repository.sql',
    source: 'libs/warehouse-imports/src/imported-data.repository.ts',
    queries: IMPORTED_DATA_SQL,
  },
];
