import { AuthenticatedAccount, effectiveRole, ServiceAccountsService } from '@analytics/accounts';
import { AccessDenied, AccountGuard, CurrentAccount } from '@analytics/auth';
import { Clock } from '@analytics/clock';
import { AppApiController } from '@analytics/http';
import { ProjectsService } from '@analytics/projects';
import { Body, Get, HttpCode, Post } from '@nestjs/common';
import { CreateOrganizationDto } from './management.dto';
import { ok, projectJson, serviceAccountJson } from './management.views';

@AppApiController('api/app', { tag: 'accounts', access: AccountGuard })
export class MeController {
  constructor(
    private readonly projects: ProjectsService,
    private readonly accounts: ServiceAccountsService,
    private readonly clock: Clock,
  ) {}

  /**
   * A new organization with its own owner account (shown once): service accounts belong to one
   * organization. On a self-hosted installation any organization's owner may create organizations.
   */
  @Post('organizations')
  @HttpCode(201)
  async createOrganization(@Body() body: CreateOrganizationDto, @CurrentAccount() caller: AuthenticatedAccount) {
    const { account } = caller;
    if (account.role !== 'owner') throw new AccessDenied(403, 'creating an organization needs an organization owner');
    const organization = await this.projects.createOrganization(body.name);
    const { view, secret } = await this.accounts.create(organization.id, caller, {
      username: body.owner_username ?? 'owner',
      role: 'owner',
    });
    return ok({
      id: organization.id,
      name: organization.name,
      owner: { ...serviceAccountJson(view, null), token: secret },
    });
  }

  /** The caller, its organization, and the projects it can use with its role on each. */
  @Get('me')
  async me(@CurrentAccount() { account, memberships }: AuthenticatedAccount) {
    const organization = await this.projects.findOrganization(account.organizationId);
    const now = this.clock.date();
    const projects = (await this.projects.listByOrganization(account.organizationId))
      .map((project) => ({ project, role: effectiveRole(account, memberships, project, now) }))
      .filter((entry) => entry.role !== undefined)
      .map(({ project, role }) => ({ ...projectJson(project), role }));
    return ok({
      service_account: {
        id: account.id,
        username: account.username,
        role: account.role,
        user: account.userId,
        expires: account.expires?.toISOString() ?? null,
      },
      organization: organization && { id: organization.id, name: organization.name },
      projects,
    });
  }
}
