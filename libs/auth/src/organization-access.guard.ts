import { AuthenticatedAccount } from '@analytics/accounts';
import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AccessDenied } from './access-denied';
import { PrincipalResolver } from './principal';
import { requiredRole } from './project-access.guard';
import { Role, satisfies } from './roles';

type AccountRequest = Request & { account?: AuthenticatedAccount };

/** The service account the guard authenticated. */
export const CurrentAccount = createParamDecorator((_: unknown, context: ExecutionContext): AuthenticatedAccount => {
  const account = context.switchToHttp().getRequest<AccountRequest>().account;
  if (!account) throw new Error('CurrentAccount used on a route without an account guard');
  return account;
});

async function authenticateAccount(principals: PrincipalResolver, req: AccountRequest): Promise<AuthenticatedAccount> {
  const principal = await principals.fromBasic(req.headers.authorization, req.ip);
  if (principal.kind !== 'service-account')
    throw new AccessDenied(403, 'this needs a service account; a project secret acts on its project only');
  req.account = principal;
  return principal;
}

/** Any valid service account (e.g. `/api/app/me`). */
@Injectable()
export class AccountGuard implements CanActivate {
  constructor(private readonly principals: PrincipalResolver) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await authenticateAccount(this.principals, context.switchToHttp().getRequest<AccountRequest>());
    return true;
  }
}

/** A service account of the `organizationId` in the route, holding the required organization role. */
@Injectable()
export class OrganizationAccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly principals: PrincipalResolver,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AccountRequest>();
    const { account } = await authenticateAccount(this.principals, req);
    const organizationId = req.params?.organizationId;
    if (String(account.organizationId) !== organizationId)
      throw new AccessDenied(403, `these credentials do not give access to organization ${String(organizationId)}`);
    const required = requiredRole(this.reflector, context);
    if (!satisfies(account.role as Role, required))
      throw new AccessDenied(403, `this needs the ${required} role or above in organization ${organizationId}`);
    return true;
  }
}
