export { ComplianceError, ComplianceErrorCode } from './compliance-error';
export { ComplianceJob, ComplianceKind, ComplianceStatus, ComplianceType, DisclosureType } from './compliance-job';
export { MAX_DISTINCT_IDS, parseComplianceRequest, ComplianceRequest } from './compliance-request';
export { ComplianceSettings, DEFAULT_COMPLIANCE_SETTINGS, DATA_DELETION_QUEUE, DATA_RETRIEVAL_QUEUE } from './compliance-settings';
export { ComplianceModule } from './compliance.module';
export { ComplianceService } from './compliance.service';
export { DISTINCT_ID_TABLES, DistinctIdTable, IDENTITY_COLUMNS } from './distinct-id-tables';
