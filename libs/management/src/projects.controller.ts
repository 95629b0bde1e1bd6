import { AuthenticatedAccount, OAuthTokensService } from '@analytics/accounts';
import {
  CurrentAccess,
  CurrentAccount,
  OrganizationAccessGuard,
  ProjectAccess,
  ProjectAccessGuard,
  ProjectAuthenticator,
  RequireRole,
} from '@analytics/auth';
import { AppApiController, IdPipe } from '@analytics/http';
import { ProjectsService } from '@analytics/projects';
import { Body, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { CreateOAuthTokenDto, CreateProjectDto, UpdateProjectDto } from './management.dto';
import { ManagementError, ManagementErrorCode } from './management-error';
import { ok, projectJson } from './management.views';
import { ProjectSettingsService } from './project-settings.service';

const DEFAULT_OAUTH_TOKEN_SECONDS = 3600;

@AppApiController('api/app/organizations/:organizationId', { tag: 'organizations', access: OrganizationAccessGuard })
export class OrganizationController {
  constructor(
    private readonly projects: ProjectsService,
    private readonly tokens: OAuthTokensService,
    private readonly settings: ProjectSettingsService,
  ) {}

  @Get('projects')
  @RequireRole('consumer')
  async listProjects(@Param('organizationId', IdPipe) organizationId: number) {
    return ok((await this.projects.listByOrganization(organizationId)).map(projectJson));
  }

  /** The new project's secret is in `secret`, in this answer only. */
  @Post('projects')
  @HttpCode(201)
  @RequireRole('admin')
  async createProject(@Param('organizationId', IdPipe) organizationId: number, @Body() body: CreateProjectDto) {
    const timezone = body.timezone === undefined ? undefined : await this.settings.checkTimeZone(body.timezone);
    const { project, secret } = await this.projects.createProject(organizationId, body.name, {}, body.region, timezone);
    return ok({ ...projectJson(project), secret });
  }

  /** A bearer token for the compliance API, acting with the caller's roles; shown once. */
  @Post('oauth-tokens')
  @HttpCode(201)
  @RequireRole('admin')
  async createOAuthToken(@Body() body: CreateOAuthTokenDto, @CurrentAccount() caller: AuthenticatedAccount) {
    const { token, expires } = await this.tokens.issue(caller.account, body.expires_in ?? DEFAULT_OAUTH_TOKEN_SECONDS);
    return ok({ token, expires: expires.toISOString() });
  }
}

@AppApiController('api/app/projects/:projectId', { tag: 'projects', access: ProjectAccessGuard })
export class ProjectController {
  constructor(
    private readonly projects: ProjectsService,
    private readonly settings: ProjectSettingsService,
    private readonly authenticator: ProjectAuthenticator,
  ) {}

  @Get()
  @RequireRole('consumer')
  get(@CurrentAccess() access: ProjectAccess) {
    return ok(projectJson(access.project));
  }

  @Patch()
  @RequireRole('admin')
  async update(@CurrentAccess() access: ProjectAccess, @Body() body: UpdateProjectDto) {
    const project = await this.settings.update(access.scope, {
      name: body.name,
      region: body.region,
      identityMerge: body.identity_merge,
      dataRetentionDays: body.data_retention_days,
      timezone: body.timezone,
    });
    if (!project)
      throw new ManagementError(ManagementErrorCode.ProjectNotFound, `project ${access.project.id} not found`);
    this.authenticator.clear();
    return ok(projectJson(project));
  }

  /** A new secret, shown once; the old one stops working here at once, on other replicas within 30 s. */
  @Post('rotate-secret')
  @HttpCode(200)
  @RequireRole('admin')
  async rotateSecret(@CurrentAccess() access: ProjectAccess) {
    const rotated = await this.projects.rotateSecret(access.scope);
    if (!rotated)
      throw new ManagementError(ManagementErrorCode.ProjectNotFound, `project ${access.project.id} not found`);
    this.authenticator.clear();
    return ok({ ...projectJson(rotated.project), secret: rotated.secret });
  }
}
