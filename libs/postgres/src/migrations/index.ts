import { PostgresMigration } from '../postgres-migration';
import { organizationsAndProjects } from './0001-organizations-and-projects';
import { accounts } from './0002-accounts';
import { profiles } from './0003-profiles';
import { savedReports } from './0004-saved-reports';
import { annotationsAndDictionary } from './0005-annotations-and-dictionary';
import { complianceJobs } from './0006-compliance-jobs';
import { warehouseImports } from './0007-warehouse-imports';
import { identityMerge } from './0008-identity-merge';
import { pipelines } from './0009-pipelines';
import { erasedIds } from './0010-erased-ids';
import { dataRetention } from './0011-data-retention';
import { projectTimeZone } from './0012-project-time-zone';
import { boards } from './0013-boards';
import { alerts } from './0014-alerts';
import { lookupTables } from './0015-lookup-tables';
import { savedRetentionReports } from './0016-saved-retention-reports';

/** Every Postgres migration, in version order. Append; never edit one that has shipped. */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  organizationsAndProjects,
  accounts,
  profiles,
  savedReports,
  annotationsAndDictionary,
  complianceJobs,
  warehouseImports,
  identityMerge,
  pipelines,
  erasedIds,
  dataRetention,
  projectTimeZone,
  boards,
  alerts,
  lookupTables,
  savedRetentionReports,
];
