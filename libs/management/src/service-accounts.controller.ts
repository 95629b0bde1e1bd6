import { AuthenticatedAccount, ServiceAccountCredentials, ServiceAccountsService } from '@analytics/accounts';
import { CurrentAccount, OrganizationAccessGuard, RequireRole } from '@analytics/auth';
import { AppApiController, IdPipe } from '@analytics/http';
import { Body, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { AddToProjectDto, CreateServiceAccountDto, RemoveFromProjectDto } from './management.dto';
import { ok, serviceAccountJson } from './management.views';

@AppApiController('api/app/organizations/:organizationId/service-accounts', {
  tag: 'service accounts',
  access: OrganizationAccessGuard,
})
@RequireRole('admin')
export class ServiceAccountsController {
  constructor(
    private readonly accounts: ServiceAccountsService,
    private readonly credentials: ServiceAccountCredentials,
  ) {}

  @Get()
  async list(@Param('organizationId', IdPipe) organizationId: number) {
    const views = await this.accounts.list(organizationId);
    return ok(views.map((view) => serviceAccountJson(view, this.credentials.lastUsed(view.account))));
  }

  /** The secret is in `token`, in this answer only. */
  @Post()
  @HttpCode(201)
  async create(
    @Param('organizationId', IdPipe) organizationId: number,
    @Body() body: CreateServiceAccountDto,
    @CurrentAccount() caller: AuthenticatedAccount,
  ) {
    const { view, secret } = await this.accounts.create(organizationId, caller, {
      username: body.username,
      role: body.role,
      expires: body.expires ? new Date(body.expires) : undefined,
      projects: body.projects,
    });
    return ok({ ...serviceAccountJson(view, null), token: secret });
  }

  @Post('add-to-project')
  @HttpCode(200)
  async addToProject(
    @Param('organizationId', IdPipe) organizationId: number,
    @Body() body: AddToProjectDto,
    @CurrentAccount() caller: AuthenticatedAccount,
  ) {
    await this.accounts.addToProjects(organizationId, caller, body.projects, body.service_account_ids);
    this.credentials.forget();
    return { status: 'ok' };
  }

  @Post('remove-from-project')
  @HttpCode(200)
  async removeFromProject(
    @Param('organizationId', IdPipe) organizationId: number,
    @Body() body: RemoveFromProjectDto,
    @CurrentAccount() caller: AuthenticatedAccount,
  ) {
    await this.accounts.removeFromProjects(
      organizationId,
      caller,
      body.projects.map((p) => ({ id: p.id, serviceAccountIds: p.service_account_ids })),
    );
    this.credentials.forget();
    return { status: 'ok' };
  }

  @Get(':serviceAccountId')
  async get(@Param('organizationId', IdPipe) organizationId: number, @Param('serviceAccountId', IdPipe) id: number) {
    const view = await this.accounts.get(organizationId, id);
    return ok(serviceAccountJson(view, this.credentials.lastUsed(view.account)));
  }

  @Delete(':serviceAccountId')
  async delete(
    @Param('organizationId', IdPipe) organizationId: number,
    @Param('serviceAccountId', IdPipe) id: number,
    @CurrentAccount() caller: AuthenticatedAccount,
  ) {
    await this.accounts.delete(organizationId, caller, id);
    this.credentials.forget();
    return { status: 'ok' };
  }
}
