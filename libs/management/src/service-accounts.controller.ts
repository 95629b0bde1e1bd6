import { AuthenticatedAccount, ServiceAccountCredentials, ServiceAccountsService } from '@analytics/accounts';
import { CurrentAccount, OrganizationAccessGuard, RequireRole } from '@analytics/auth';
import { AppApiErrorFilter, strictValidation } from '@analytics/http';
import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, UseFilters, UseGuards, UsePipes } from '@nestjs/common';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import { AddToProjectDto, CreateServiceAccountDto, RemoveFromProjectDto } from './management.dto';
import { ok, serviceAccountJson } from './management.views';

@ApiTags('service accounts')
@ApiBasicAuth()
@Controller('api/app/organizations/:organizationId/service-accounts')
@UseGuards(OrganizationAccessGuard)
@UseFilters(AppApiErrorFilter)
@UsePipes(strictValidation)
@RequireRole('admin')
export class ServiceAccountsController {
  constructor(
    private readonly accounts: ServiceAccountsService,
    private readonly credentials: ServiceAccountCredentials,
  ) {}

  @Get()
  async list(@Param('organizationId', ParseIntPipe) organizationId: number) {
    const views = await this.accounts.list(organizationId);
    return ok(views.map((view) => serviceAccountJson(view, this.credentials.lastUsed(view.account))));
  }

  /** The secret is in `token`, in this answer only. */
  @Post()
  @HttpCode(201)
  async create(@Param('organizationId', ParseIntPipe) organizationId: number, @Body() body: CreateServiceAccountDto, @CurrentAccount() caller: AuthenticatedAccount) {
    const { view, secret } = await this.accounts.create(organizationId, caller.account.userId, {
      username: body.username,
      role: body.role,
      expires: body.expires ? new Date(body.expires) : undefined,
      projects: body.projects,
    });
    return ok({ ...serviceAccountJson(view, null), token: secret });
  }

  @Post('add-to-project')
  @HttpCode(200)
  async addToProject(@Param('organizationId', ParseIntPipe) organizationId: number, @Body() body: AddToProjectDto) {
    await this.accounts.addToProjects(organizationId, body.projects, body.service_account_ids);
    this.credentials.forget();
    return { status: 'ok' };
  }

  @Post('remove-from-project')
  @HttpCode(200)
  async removeFromProject(@Param('organizationId', ParseIntPipe) organizationId: number, @Body() body: RemoveFromProjectDto) {
    await this.accounts.removeFromProjects(organizationId, body.projects.map((p) => ({ id: p.id, serviceAccountIds: p.service_account_ids })));
    this.credentials.forget();
    return { status: 'ok' };
  }

  @Get(':serviceAccountId')
  async get(@Param('organizationId', ParseIntPipe) organizationId: number, @Param('serviceAccountId', ParseIntPipe) id: number) {
    const view = await this.accounts.get(organizationId, id);
    return ok(serviceAccountJson(view, this.credentials.lastUsed(view.account)));
  }

  @Delete(':serviceAccountId')
  async delete(@Param('organizationId', ParseIntPipe) organizationId: number, @Param('serviceAccountId', ParseIntPipe) id: number) {
    await this.accounts.delete(organizationId, id);
    this.credentials.forget();
    return { status: 'ok' };
  }
}
