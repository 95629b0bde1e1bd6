/** The spec's eight status values (`NOT_FOUND` and `UNKNOWN` are answers, never stored). */
export type ComplianceStatus =
  'PENDING' | 'STAGING' | 'STARTED' | 'SUCCESS' | 'FAILURE' | 'REVOKED' | 'NOT_FOUND' | 'UNKNOWN';
export type StoredStatus = Exclude<ComplianceStatus, 'NOT_FOUND' | 'UNKNOWN'>;

/** Before STARTED a job may still be cancelled; from STARTED on there is no way back. */
export const CANCELLABLE: readonly StoredStatus[] = ['PENDING', 'STAGING'];
export const FINISHED: readonly StoredStatus[] = ['SUCCESS', 'FAILURE', 'REVOKED'];

export type ComplianceKind = 'retrieval' | 'deletion';
export type ComplianceType = 'GDPR' | 'CCPA';
export type DisclosureType = 'Data' | 'Categories' | 'Sources';

/** A compliance job as stored in Postgres (`compliance_jobs`). */
export interface ComplianceJob {
  id: string;
  kind: ComplianceKind;
  projectId: number;
  status: StoredStatus;
  complianceType: ComplianceType;
  disclosureType: DisclosureType;
  distinctIds: string[];
  requestingUser: string;
  /** When the request was accepted: the ingestion-time bound of a deletion. */
  requestedAt: Date;
  /** Retrieval: the signed download link, once SUCCESS. */
  resultUrl: string | null;
  /** FAILURE: why. */
  error: string | null;
}
