import { AuthenticatedAccount, effectiveRole, ServiceAccountCredentials } from '@analytics/accounts';
import { Project } from '@analytics/projects';
import { Injectable } from '@nestjs/common';
import { AccessDenied } from './access-denied';
import { parseBasicCredentials } from './basic-credentials';
import { ProjectAccess } from './project-access';
import { ProjectAuthenticator } from './project-authenticator';
import { Role } from './roles';

/** Who presented credentials: a service account, or a project's secret. */
export type Principal = ({ kind: 'service-account' } & AuthenticatedAccount) | { kind: 'project-secret'; project: Project };

const INVALID = 'invalid credentials';

/** Resolves HTTP Basic credentials; every failure reads the same, whether or not the account exists. */
@Injectable()
export class PrincipalResolver {
  constructor(
    private readonly accounts: ServiceAccountCredentials,
    private readonly projects: ProjectAuthenticator,
  ) {}

  async fromBasic(authorization: string | undefined): Promise<Principal> {
    const credentials = parseBasicCredentials(authorization);
    if (!credentials) throw new AccessDenied(401, 'authentication required: HTTP Basic with a service account or the project secret');
    if (credentials.password !== '') {
      const account = await this.accounts.verify(credentials.username, credentials.password);
      if (!account) throw new AccessDenied(401, INVALID);
      return { kind: 'service-account', ...account };
    }
    const project = await this.projects.bySecret(credentials.username);
    if (!project) throw new AccessDenied(401, INVALID);
    return { kind: 'project-secret', project };
  }

  /**
   * The principal's access to a project. A project secret acts as `admin` on its own project;
   * a service account needs `project_id` and a role there (organization owners and admins have one
   * on every project of their organization). An unknown project reads like a forbidden one.
   */
  async accessTo(principal: Principal, projectId: string | undefined): Promise<ProjectAccess> {
    if (projectId !== undefined && !/^\d{1,10}$/.test(projectId)) throw new AccessDenied(400, `project_id must be a project id, got "${projectId}"`);
    if (principal.kind === 'project-secret') {
      if (projectId !== undefined && Number(projectId) !== principal.project.id) {
        throw new AccessDenied(403, `these credentials do not give access to project ${projectId}`);
      }
      return { project: principal.project, role: 'admin', actor: { kind: 'project-secret', projectId: principal.project.id } };
    }
    if (projectId === undefined) throw new AccessDenied(400, 'project_id is required with service-account credentials');
    const project = await this.projects.byId(Number(projectId));
    const role = project && (effectiveRole(principal.account, principal.memberships, project) as Role | undefined);
    if (!project || !role) throw new AccessDenied(403, `these credentials do not give access to project ${projectId}`);
    return { project, role, actor: { kind: 'service-account', id: principal.account.id, username: principal.account.username, userId: principal.account.userId } };
  }
}
