import { ok } from '@analytics/http';
import { ServiceAccountView } from '@analytics/accounts';
import { Project } from '@analytics/projects';

/** A service account as the API shows it: never its secret (that is `token`, in the creation answer only). */
export function serviceAccountJson({ account, projects }: ServiceAccountView, lastUsed: Date | null) {
  return {
    id: account.id,
    username: account.username,
    last_used: lastUsed?.toISOString() ?? null,
    expires: account.expires?.toISOString() ?? null,
    creator: account.creator,
    created: account.created.toISOString(),
    user: account.userId,
    role: account.role,
    projects,
  };
}

export function projectJson(project: Project) {
  return {
    id: project.id,
    organization_id: project.organizationId,
    name: project.name,
    token: project.token,
    region: project.region,
    identity_merge: project.identityMerge,
    data_retention_days: project.dataRetentionDays,
    timezone: project.timezone,
    created: project.createdAt.toISOString(),
  };
}

export { ok };
