import { Project } from '@analytics/projects';
import { ProjectMembership, RoleName, ServiceAccount } from './accounts.schema';

export const RANK: Readonly<Record<RoleName, number>> = { owner: 4, admin: 3, analyst: 2, consumer: 1 };

/** An account with its project memberships: who acts, or whom an action is about. */
export interface AccountActor {
  account: ServiceAccount;
  memberships: ProjectMembership[];
}

/** The role an account holds on a project, expired or not: its own there, or its organization's owner/admin role if higher. */
function heldRole(account: ServiceAccount, memberships: ProjectMembership[], project: Project): RoleName | undefined {
  if (project.organizationId !== account.organizationId) return undefined;
  const member = memberships.find((m) => m.serviceAccountId === account.id && m.projectId === project.id)?.role;
  const inherited = account.role === 'owner' || account.role === 'admin' ? account.role : undefined;
  if (!member) return inherited;
  if (!inherited) return member;
  return RANK[member] >= RANK[inherited] ? member : inherited;
}

/** Organization owners and admins act on every project of their organization with that role; an expired account (at `now`) on none. */
export function effectiveRole(
  account: ServiceAccount,
  memberships: ProjectMembership[],
  project: Project,
  now: Date,
): RoleName | undefined {
  if (account.expires && account.expires <= now) return undefined;
  return heldRole(account, memberships, project);
}

/**
 * Where `target` holds a role above the actor's own, said in words ("owner of the organization",
 * "owner on project 7"), or undefined if nowhere: in its organization, or on any project of
 * `projects` (the organization's), however the target holds it (membership or organization role).
 * Expiry does not lower what the target holds: an expired owner is still an owner to remove; the
 * actor's own role is the one it holds at `now`.
 */
export function roleAboveActor(
  actor: AccountActor,
  target: AccountActor,
  projects: readonly Project[],
  now: Date,
): string | undefined {
  if (RANK[target.account.role] > RANK[actor.account.role]) return `${target.account.role} of the organization`;
  for (const project of projects) {
    const held = heldRole(target.account, target.memberships, project);
    if (!held) continue;
    const own = effectiveRole(actor.account, actor.memberships, project, now);
    if (!own || RANK[held] > RANK[own]) return `${held} on project ${project.id}`;
  }
  return undefined;
}
