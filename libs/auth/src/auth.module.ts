import { AccountsModule } from '@analytics/accounts';
import { ProjectsModule } from '@analytics/projects';
import { Module } from '@nestjs/common';
import { BearerAccessGuard } from './bearer-access.guard';
import { AccountGuard, OrganizationAccessGuard } from './organization-access.guard';
import { PrincipalResolver } from './principal';
import { ProjectAccessGuard } from './project-access.guard';
import { ProjectAuthenticator } from './project-authenticator';

const providers = [ProjectAuthenticator, PrincipalResolver, ProjectAccessGuard, OrganizationAccessGuard, AccountGuard, BearerAccessGuard];

/** Every credential scheme of the spec, as guards any service's controllers use. */
@Module({ imports: [ProjectsModule, AccountsModule], providers, exports: [...providers, AccountsModule] })
export class AuthModule {}
