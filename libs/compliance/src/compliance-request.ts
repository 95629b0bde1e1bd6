import { ProjectScope } from '@analytics/tenancy';
import { ComplianceError, ComplianceErrorCode } from './compliance-error';
import { ComplianceKind, ComplianceType, DisclosureType } from './compliance-job';

export const MAX_DISTINCT_IDS = 2000;
const MAX_ID_LENGTH = 255;

/** A create request, valid whoever built it (HTTP, CLI): the project it acts on and what to do. */
export interface ComplianceRequest {
  kind: ComplianceKind;
  scope: ProjectScope;
  distinctIds: string[];
  complianceType: ComplianceType;
  disclosureType: DisclosureType;
  requestingUser: string;
}

const invalid = (message: string) => new ComplianceError(ComplianceErrorCode.InvalidRequest, message);

/** Form bodies carry the list as a JSON string (`distinct_ids=["a","b"]`) or repeated fields. */
function idsOf(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return [value];
  }
}

/** Checks a create body (JSON or form) the way the spec describes it; throws a 400 otherwise. */
export function parseComplianceRequest(
  kind: ComplianceKind,
  body: unknown,
  by: { scope: ProjectScope; requestingUser: string },
): ComplianceRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw invalid('the body must be an object with distinct_ids');
  const fields = body as Record<string, unknown>;
  const allowed =
    kind === 'retrieval' ? ['distinct_ids', 'compliance_type', 'disclosure_type'] : ['distinct_ids', 'compliance_type'];
  const unknown = Object.keys(fields).filter((name) => !allowed.includes(name));
  if (unknown.length) throw invalid(`unknown field ${unknown[0]}`);
  const ids = idsOf(fields.distinct_ids);
  if (!Array.isArray(ids) || ids.length === 0) throw invalid('distinct_ids must be a non-empty array of strings');
  if (ids.length > MAX_DISTINCT_IDS) throw invalid(`distinct_ids holds at most ${MAX_DISTINCT_IDS} ids`);
  for (const id of ids) {
    if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH)
      throw invalid(`each distinct id must be a string of 1 to ${MAX_ID_LENGTH} characters`);
  }
  const complianceType = fields.compliance_type ?? 'GDPR';
  if (complianceType !== 'GDPR' && complianceType !== 'CCPA') throw invalid('compliance_type must be GDPR or CCPA');
  const disclosureType = fields.disclosure_type ?? 'Data';
  if (disclosureType !== 'Data' && disclosureType !== 'Categories' && disclosureType !== 'Sources')
    throw invalid('disclosure_type must be Data, Categories or Sources');
  if (disclosureType !== 'Data' && complianceType !== 'CCPA')
    throw invalid('disclosure_type Categories and Sources are for CCPA retrievals only');
  return {
    kind,
    scope: by.scope,
    distinctIds: [...new Set(ids as string[])],
    complianceType,
    disclosureType,
    requestingUser: by.requestingUser,
  };
}
