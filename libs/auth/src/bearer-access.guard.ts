import { effectiveRole } from '@analytics/accounts';
import { Clock } from '@analytics/clock';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AccessDenied } from './access-denied';
import { PrincipalResolver } from './principal';
import { projectAccess } from './project-access';
import { AccessRequest, requiredRole } from './project-access.guard';
import { ProjectAuthenticator } from './project-authenticator';
import { Role, satisfies } from './roles';

/**
 * The compliance scheme: `Authorization: Bearer <OAuth token>` plus `token=<project token>` naming
 * the project; the token's account needs the required role there.
 */
@Injectable()
export class BearerAccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly principals: PrincipalResolver,
    private readonly projects: ProjectAuthenticator,
    private readonly clock: Clock,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AccessRequest>();
    const match = /^Bearer\s+([A-Za-z0-9._~+/-]{16,512}=*)\s*$/i.exec(req.headers.authorization ?? '');
    if (!match) throw new AccessDenied(401, 'authentication required: Authorization: Bearer <OAuth token>');
    const principal = await this.principals.fromBearer(match[1], req.ip);
    if (!principal) throw new AccessDenied(401, 'invalid or expired OAuth token');
    const projectToken = new URL(req.originalUrl, 'http://local').searchParams.get('token');
    if (!projectToken) throw new AccessDenied(400, 'token (the project token) is required');
    const project = await this.projects.byToken(projectToken);
    const role =
      project &&
      (effectiveRole(principal.account, principal.memberships, project, this.clock.date()) as Role | undefined);
    if (!project || !role) throw new AccessDenied(403, 'this OAuth token gives no access to that project');
    const required = requiredRole(this.reflector, context);
    if (!satisfies(role, required))
      throw new AccessDenied(403, `this needs the ${required} role or above on project ${project.id}`);
    req.projectAccess = projectAccess(project, role, {
      kind: 'service-account',
      id: principal.account.id,
      username: principal.account.username,
      userId: principal.account.userId,
    });
    return true;
  }
}
