import { AuthenticatedAccount, effectiveRole } from '@analytics/accounts';
import { AccountGuard, CurrentAccount } from '@analytics/auth';
import { AppApiErrorFilter } from '@analytics/http';
import { ProjectsService } from '@analytics/projects';
import { Controller, Get, UseFilters, UseGuards } from '@nestjs/common';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import { ok, projectJson } from './management.views';

@ApiTags('accounts')
@ApiBasicAuth()
@Controller('api/app/me')
@UseGuards(AccountGuard)
@UseFilters(AppApiErrorFilter)
export class MeController {
  constructor(private readonly projects: ProjectsService) {}

  /** The caller, its organization, and the projects it can use with its role on each. */
  @Get()
  async me(@CurrentAccount() { account, memberships }: AuthenticatedAccount) {
    const organization = await this.projects.findOrganization(account.organizationId);
    const projects = (await this.projects.listByOrganization(account.organizationId))
      .map((project) => ({ project, role: effectiveRole(account, memberships, project) }))
      .filter((entry) => entry.role !== undefined)
      .map(({ project, role }) => ({ ...projectJson(project), role }));
    return ok({
      service_account: { id: account.id, username: account.username, role: account.role, user: account.userId, expires: account.expires?.toISOString() ?? null },
      organization: organization && { id: organization.id, name: organization.name },
      projects,
    });
  }
}
