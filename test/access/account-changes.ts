import { ROLE_MATRIX } from '@analytics/auth';
import { SampleRequest } from './sample-requests';

const ACCOUNTS = '/api/app/organizations/:organizationId/service-accounts';

/** What an account-changing request acts on: an existing account, in a project of the organization. */
export interface AccountChangeTarget {
  serviceAccountId: number;
  projectId: number;
}

/**
 * Every route that changes an existing account's roles or existence, with the request that does
 * it to a target: each demotes it (consumer), takes it out of the project, or deletes it. The
 * role-matrix walk sends each of them at accounts that hold a role above the caller's.
 */
export const ACCOUNT_CHANGES: Record<string, (target: AccountChangeTarget) => SampleRequest> = {
  [`POST ${ACCOUNTS}/add-to-project`]: (t) => ({
    body: { projects: [{ id: t.projectId, role: 'consumer' }], service_account_ids: [t.serviceAccountId] },
  }),
  [`POST ${ACCOUNTS}/remove-from-project`]: (t) => ({
    body: { projects: [{ id: t.projectId, service_account_ids: [t.serviceAccountId] }] },
  }),
  [`DELETE ${ACCOUNTS}/:serviceAccountId`]: (t) => ({ params: { serviceAccountId: t.serviceAccountId } }),
};

/** Routes that write under service-accounts (all but creating one) and are not in {@link ACCOUNT_CHANGES}: a new one must be walked too. */
export function accountChangesNotWalked(): string[] {
  return ROLE_MATRIX.filter(
    (r) => r.path.startsWith(ACCOUNTS) && r.method !== 'GET' && !(r.method === 'POST' && r.path === ACCOUNTS),
  )
    .map((r) => `${r.method} ${r.path}`)
    .filter((key) => !ACCOUNT_CHANGES[key]);
}
