import { Clock } from '@analytics/clock';
import { ProjectsService } from '@analytics/projects';
import { generateCredential, hashSecret } from '@analytics/secrets';
import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AccountActor, effectiveRole, RANK, roleAboveActor } from './account-rights';
import { AccountsError, AccountsErrorCode } from './accounts-errors';
import { AccountsRepository } from './accounts.repository';
import { ProjectMembership, RoleName, ServiceAccount } from './accounts.schema';

export interface ProjectRole {
  id: number;
  role: RoleName;
}

export interface NewServiceAccountRequest {
  username: string;
  role?: RoleName;
  expires?: Date;
  projects?: ProjectRole[];
}

export interface ServiceAccountView {
  account: ServiceAccount;
  projects: ProjectRole[];
}

@Injectable()
export class ServiceAccountsService {
  constructor(
    private readonly repository: AccountsRepository,
    private readonly projects: ProjectsService,
    private readonly clock: Clock,
  ) {}

  /**
   * Usernames get a random suffix, as the real API does, so that a descriptive name never collides
   * and never guesses another account; `exactUsername` (bootstrap) keeps the given one.
   */
  async create(
    organizationId: number,
    actor: AccountActor | null,
    request: NewServiceAccountRequest,
    exactUsername = false,
  ): Promise<{ view: ServiceAccountView; secret: string }> {
    const projects = request.projects ?? [];
    await this.assertProjectsInOrganization(
      organizationId,
      projects.map((p) => p.id),
    );
    if (actor) {
      this.assertMayHold(actor, request.role ?? 'consumer', 'create an account with organization role');
      await this.assertMayGrant(actor, projects);
    }
    if (request.expires && request.expires.getTime() <= this.clock.now())
      throw new AccountsError(AccountsErrorCode.InvalidExpiry, 'expires must be in the future');
    const secret = generateCredential();
    const username = exactUsername
      ? request.username
      : `${request.username}.${randomBytes(3).toString('hex')}.service-account`;
    if (exactUsername && (await this.repository.findByUsername(username)))
      throw new AccountsError(AccountsErrorCode.UsernameTaken, `username ${username} is taken`);
    const account = await this.repository.createServiceAccount({
      organizationId,
      username,
      secretHash: await hashSecret(secret),
      role: request.role ?? 'consumer',
      creator: actor?.account.userId ?? null,
      expires: request.expires ?? null,
      projects,
    });
    return { view: { account, projects }, secret };
  }

  async list(organizationId: number): Promise<ServiceAccountView[]> {
    const accounts = await this.repository.listByOrganization(organizationId);
    const memberships = await this.repository.memberships(accounts.map((a) => a.id));
    return accounts.map((account) => ({ account, projects: projectRoles(account, memberships) }));
  }

  async get(organizationId: number, id: number): Promise<ServiceAccountView> {
    const account = await this.repository.findById(organizationId, id);
    if (!account) throw new AccountsError(AccountsErrorCode.NotFound, `service account ${id} not found`);
    return { account, projects: projectRoles(account, await this.repository.memberships([id])) };
  }

  async delete(organizationId: number, actor: AccountActor, id: number): Promise<void> {
    const account = await this.repository.findById(organizationId, id);
    if (!account) throw new AccountsError(AccountsErrorCode.NotFound, `service account ${id} not found`);
    await this.assertMayChange(organizationId, actor, [account]);
    await this.assertNotLastOwner(organizationId, account);
    if (!(await this.repository.delete(organizationId, id)))
      throw new AccountsError(AccountsErrorCode.NotFound, `service account ${id} not found`);
  }

  async addToProjects(
    organizationId: number,
    actor: AccountActor,
    projects: ProjectRole[],
    serviceAccountIds: number[],
  ): Promise<void> {
    await this.assertProjectsInOrganization(
      organizationId,
      projects.map((p) => p.id),
    );
    await this.assertMayChange(
      organizationId,
      actor,
      await this.accountsInOrganization(organizationId, serviceAccountIds),
    );
    await this.assertMayGrant(actor, projects);
    await this.repository.addMemberships(
      serviceAccountIds.flatMap((serviceAccountId) =>
        projects.map((p) => ({ serviceAccountId, projectId: p.id, role: p.role })),
      ),
    );
  }

  async removeFromProjects(
    organizationId: number,
    actor: AccountActor,
    projects: { id: number; serviceAccountIds: number[] }[],
  ): Promise<void> {
    await this.assertProjectsInOrganization(
      organizationId,
      projects.map((p) => p.id),
    );
    for (const project of projects) {
      await this.assertMayChange(
        organizationId,
        actor,
        await this.accountsInOrganization(organizationId, project.serviceAccountIds),
      );
    }
    for (const project of projects) await this.repository.removeMemberships(project.id, project.serviceAccountIds);
  }

  private async assertProjectsInOrganization(organizationId: number, ids: number[]): Promise<void> {
    for (const id of ids) {
      const project = await this.projects.findById(id);
      if (!project || project.organizationId !== organizationId)
        throw new AccountsError(
          AccountsErrorCode.NotInOrganization,
          `project ${id} is not a project of organization ${organizationId}`,
        );
    }
  }

  private async accountsInOrganization(organizationId: number, ids: number[]): Promise<ServiceAccount[]> {
    const accounts: ServiceAccount[] = [];
    for (const id of ids) {
      const account = await this.repository.findById(organizationId, id);
      if (!account)
        throw new AccountsError(
          AccountsErrorCode.NotInOrganization,
          `service account ${id} is not in organization ${organizationId}`,
        );
      accounts.push(account);
    }
    return accounts;
  }

  /** Nobody grants a role above their own: only owners make owners. */
  private assertMayHold(actor: AccountActor, role: RoleName, action: string): void {
    if (RANK[role] > RANK[actor.account.role]) {
      throw new AccountsError(
        AccountsErrorCode.RoleAboveOwn,
        `a ${actor.account.role} cannot ${action} ${role}: that is above its own role`,
      );
    }
  }

  /** Each project role granted is at most the actor's own role on that project. */
  private async assertMayGrant(actor: AccountActor, projects: ProjectRole[]): Promise<void> {
    for (const { id, role } of projects) {
      const project = await this.projects.findById(id);
      const own = project && effectiveRole(actor.account, actor.memberships, project, this.clock.date());
      if (!own || RANK[role] > RANK[own]) {
        throw new AccountsError(
          AccountsErrorCode.RoleAboveOwn,
          `cannot grant ${role} on project ${id}: above the caller's own role there (${own ?? 'none'})`,
        );
      }
    }
  }

  /**
   * Nobody demotes, removes or deletes an account that holds a role above their own, in the
   * organization or on any of its projects: an admin cannot touch an owner of any project.
   */
  private async assertMayChange(
    organizationId: number,
    actor: AccountActor,
    accounts: ServiceAccount[],
  ): Promise<void> {
    const projects = await this.projects.listByOrganization(organizationId);
    const memberships = await this.repository.memberships(accounts.map((a) => a.id));
    for (const account of accounts) {
      const above = roleAboveActor(actor, { account, memberships }, projects, this.clock.date());
      if (above)
        throw new AccountsError(
          AccountsErrorCode.RoleAboveOwn,
          `the caller (${actor.account.role}) cannot change service account ${account.id}, which is ${above}`,
        );
    }
  }

  /** Only owners make owners: an organization without an owner that can sign in could never have one again. */
  private async assertNotLastOwner(organizationId: number, account: ServiceAccount): Promise<void> {
    const now = this.clock.date();
    const active = (a: ServiceAccount) => a.role === 'owner' && !(a.expires && a.expires <= now);
    if (!active(account)) return;
    const owners = (await this.repository.listByOrganization(organizationId)).filter(active);
    if (owners.every((owner) => owner.id === account.id)) {
      throw new AccountsError(
        AccountsErrorCode.LastOwner,
        `service account ${account.id} is the last owner of organization ${organizationId}: make another owner first`,
      );
    }
  }
}

function projectRoles(account: ServiceAccount, memberships: ProjectMembership[]): ProjectRole[] {
  return memberships.filter((m) => m.serviceAccountId === account.id).map((m) => ({ id: m.projectId, role: m.role }));
}
