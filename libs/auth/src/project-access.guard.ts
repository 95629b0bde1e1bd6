import { CanActivate, createParamDecorator, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AccessDenied } from './access-denied';
import { ProjectAccess } from './project-access';
import { PrincipalResolver } from './principal';
import { Role, satisfies } from './roles';

const REQUIRED_ROLE = 'analytics:required-role';

/** The least role an endpoint needs (on the project, or on the organization for organization routes). */
export const RequireRole = (role: Role) => SetMetadata(REQUIRED_ROLE, role);
export const RequireProjectRole = RequireRole;

export function requiredRole(reflector: Reflector, context: ExecutionContext): Role {
  return (
    reflector.getAllAndOverride<Role | undefined>(REQUIRED_ROLE, [context.getHandler(), context.getClass()]) ?? 'owner'
  );
}

export type AccessRequest = Request & { projectAccess?: ProjectAccess };

/** The access the guard established for this request. */
export const CurrentAccess = createParamDecorator((_: unknown, context: ExecutionContext): ProjectAccess => {
  const access = context.switchToHttp().getRequest<AccessRequest>().projectAccess;
  if (!access) throw new Error('CurrentAccess used on a route without ProjectAccessGuard');
  return access;
});

/** The project a request acts on: the `projectId` route parameter, else the `project_id` query or form field. */
export function requestedProjectId(req: Request): string | undefined {
  const fromRoute = req.params?.projectId;
  if (typeof fromRoute === 'string') return fromRoute;
  const fromQuery = new URL(req.originalUrl, 'http://local').searchParams.get('project_id');
  if (fromQuery !== null) return fromQuery;
  const fromBody = (req.body as Record<string, unknown> | undefined)?.project_id;
  return fromBody === undefined ? undefined : String(fromBody);
}

/** HTTP Basic credentials with the role the endpoint requires on the project it acts on (default: owner). */
@Injectable()
export class ProjectAccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly principals: PrincipalResolver,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AccessRequest>();
    const required = requiredRole(this.reflector, context);
    const principal = await this.principals.fromBasic(req.headers.authorization, req.ip);
    const access = await this.principals.accessTo(principal, requestedProjectId(req));
    if (!satisfies(access.role, required))
      throw new AccessDenied(403, `this needs the ${required} role or above on project ${access.project.id}`);
    req.projectAccess = access;
    return true;
  }
}
