import { ProjectScope } from '@analytics/tenancy';

/** An id that belongs to a cluster under another id, its canonical one. */
export interface MergedId {
  distinctId: string;
  personId: string;
}

/**
 * What follows a merge outside the mapping, called by the identity writer once it has written a
 * project's rows: the profiles lib folds the profiles stored under ids that are no longer
 * canonical (docs/identity.md, "Profiles"). Its token lives here, its implementation there, so
 * identity needs no profile code. It is given every merged id of the clusters a batch touched,
 * not only those the batch changed: a batch applied again after a crash between the mapping and
 * the hook completes what the first attempt left, so the hook must be idempotent.
 */
export abstract class IdentityMergeHook {
  abstract merged(scope: ProjectScope, ids: MergedId[]): Promise<void>;
}
