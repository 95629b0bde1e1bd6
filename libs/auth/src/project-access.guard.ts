import { CanActivate, createParamDecorator, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AccessDenied } from './access-denied';
import { parseBasicCredentials } from './basic-credentials';
import { ProjectAccess } from './project-access';
import { ProjectAuthenticator } from './project-authenticator';
import { Role, satisfies } from './roles';

const REQUIRED_ROLE = 'analytics:required-role';

/** The least role an endpoint needs on the project it acts on. */
export const RequireProjectRole = (role: Role) => SetMetadata(REQUIRED_ROLE, role);

type AccessRequest = Request & { projectAccess?: ProjectAccess };

/** The access the guard established for this request. */
export const CurrentAccess = createParamDecorator((_: unknown, context: ExecutionContext): ProjectAccess => {
  const access = context.switchToHttp().getRequest<AccessRequest>().projectAccess;
  if (!access) throw new Error('CurrentAccess used on a route without ProjectAccessGuard');
  return access;
});

/** The project a request acts on: the `projectId` route parameter, else the `project_id` query or form field. */
function requestedProjectId(req: AccessRequest): string | undefined {
  const fromRoute = req.params?.projectId;
  if (typeof fromRoute === 'string') return fromRoute;
  const fromQuery = new URL(req.originalUrl, 'http://local').searchParams.get('project_id');
  if (fromQuery !== null) return fromQuery;
  const fromBody = (req.body as Record<string, unknown> | undefined)?.project_id;
  return fromBody === undefined ? undefined : String(fromBody);
}

/**
 * Authenticates HTTP Basic credentials for a project-scoped endpoint and checks the role the
 * endpoint requires. A project secret acts as `admin` on its own project (the real API lets it do
 * everything there). Failures never reveal whether an account exists.
 */
@Injectable()
export class ProjectAccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: ProjectAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AccessRequest>();
    const required = this.reflector.getAllAndOverride<Role | undefined>(REQUIRED_ROLE, [context.getHandler(), context.getClass()]) ?? 'consumer';
    const credentials = parseBasicCredentials(req.headers.authorization);
    if (!credentials) throw new AccessDenied(401, 'authentication required: HTTP Basic with a service account or the project secret');
    const projectId = requestedProjectId(req);
    if (projectId !== undefined && !/^\d{1,10}$/.test(projectId)) throw new AccessDenied(403, `no access to project ${projectId}`);

    const project = await this.authenticator.bySecret(credentials.username);
    if (!project) throw new AccessDenied(401, 'invalid credentials');
    if (projectId !== undefined && Number(projectId) !== project.id) throw new AccessDenied(403, `these credentials do not give access to project ${projectId}`);
    const access: ProjectAccess = { project, role: 'admin', actor: { kind: 'project-secret', projectId: project.id } };
    if (!satisfies(access.role, required)) throw new AccessDenied(403, `this needs the ${required} role or above on project ${project.id}`);
    req.projectAccess = access;
    return true;
  }
}
