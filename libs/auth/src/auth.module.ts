import { AccountsModule } from '@analytics/accounts';
import { ProjectsModule } from '@analytics/projects';
import { RateLimitsModule } from '@analytics/rate-limits';
import { Module } from '@nestjs/common';
import { BearerAccessGuard } from './bearer-access.guard';
import { LoginThrottle } from './login-throttle';
import { AccountGuard, OrganizationAccessGuard } from './organization-access.guard';
import { PrincipalResolver } from './principal';
import { ProjectAccessGuard } from './project-access.guard';
import { ProjectAuthenticator } from './project-authenticator';
import { QueryAccessGuard } from './query-access.guard';

const providers = [
  ProjectAuthenticator,
  LoginThrottle,
  PrincipalResolver,
  ProjectAccessGuard,
  QueryAccessGuard,
  OrganizationAccessGuard,
  AccountGuard,
  BearerAccessGuard,
];

/** Every credential scheme of the spec, as guards any service's controllers use. */
@Module({
  imports: [ProjectsModule, AccountsModule, RateLimitsModule],
  providers,
  exports: [...providers, AccountsModule],
})
export class AuthModule {}
