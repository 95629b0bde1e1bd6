import {
  AuthenticatedAccount,
  effectiveRole,
  OAuthTokensService,
  ServiceAccountCredentials,
} from '@analytics/accounts';
import { Clock } from '@analytics/clock';
import { Project } from '@analytics/projects';
import { isDatabaseId } from '@analytics/http';
import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AccessDenied } from './access-denied';
import { parseBasicCredentials } from './basic-credentials';
import { LoginAttempt, LoginThrottle } from './login-throttle';
import { ProjectAccess, projectAccess } from './project-access';
import { ProjectAuthenticator } from './project-authenticator';
import { Role } from './roles';

/** Who presented credentials: a service account, or a project's secret. */
export type Principal =
  ({ kind: 'service-account' } & AuthenticatedAccount) | { kind: 'project-secret'; project: Project };

const INVALID = 'invalid credentials';

/**
 * Resolves credentials; every failure reads the same, whether or not the account exists. Credentials
 * not remembered as verified go through the {@link LoginThrottle} (`clientIp`: Express's `req.ip`, which
 * honours TRUST_PROXY), and the same credentials arriving at once from one address are checked once.
 */
@Injectable()
export class PrincipalResolver {
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(
    private readonly accounts: ServiceAccountCredentials,
    private readonly projects: ProjectAuthenticator,
    private readonly tokens: OAuthTokensService,
    private readonly throttle: LoginThrottle,
    private readonly clock: Clock,
  ) {}

  async fromBasic(authorization: string | undefined, clientIp: string | undefined): Promise<Principal> {
    const credentials = parseBasicCredentials(authorization);
    if (!credentials)
      throw new AccessDenied(401, 'authentication required: HTTP Basic with a service account or the project secret');
    const { username, password } = credentials;
    if (password !== '') {
      const known = this.accounts.isVerified(username, password);
      const account = await this.checked({ ip: clientIp, username }, known, ['account', username, password], () =>
        this.accounts.verify(username, password),
      );
      if (!account) throw new AccessDenied(401, INVALID);
      return { kind: 'service-account', ...account };
    }
    const project = await this.checked(
      { ip: clientIp },
      this.projects.isKnownSecret(username),
      ['secret', username],
      () => this.projects.bySecret(username),
    );
    if (!project) throw new AccessDenied(401, INVALID);
    return { kind: 'project-secret', project };
  }

  /** The project whose secret, or token, is this Basic username (`/import` accepts either). */
  projectBySecretOrToken(secretOrToken: string, clientIp: string | undefined): Promise<Project | undefined> {
    const known = this.projects.isKnownSecret(secretOrToken) || this.projects.isKnownToken(secretOrToken);
    return this.checked({ ip: clientIp }, known, ['secret-or-token', secretOrToken], async () => {
      return (await this.projects.bySecret(secretOrToken)) ?? (await this.projects.byToken(secretOrToken));
    });
  }

  /** The account behind an OAuth bearer token (compliance), if the token is known and unexpired. */
  fromBearer(token: string, clientIp: string | undefined): Promise<AuthenticatedAccount | undefined> {
    return this.checked({ ip: clientIp }, this.tokens.isVerified(token), ['bearer', token], () =>
      this.tokens.verify(token),
    );
  }

  /**
   * Runs a credential check: at once when the credentials were verified recently; otherwise admitted
   * by the throttle first (429 past its limit), its points given back if the credentials were right.
   */
  private checked<T>(
    attempt: LoginAttempt,
    known: boolean,
    credential: string[],
    check: () => Promise<T | undefined>,
  ): Promise<T | undefined> {
    if (known) return check();
    const key = createHash('sha256')
      .update([attempt.ip ?? '', ...credential].join('\u0000'))
      .digest('hex');
    const running = this.inFlight.get(key) as Promise<T | undefined> | undefined;
    if (running) return running;
    const result = (async () => {
      await this.throttle.admit(attempt);
      const value = await check();
      if (value !== undefined) await this.throttle.succeeded(attempt);
      return value;
    })().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, result);
    return result;
  }

  /**
   * The principal's access to a project. A project secret acts as `admin` on its own project;
   * a service account needs `project_id` and a role there (organization owners and admins have one
   * on every project of their organization). An unknown project reads like a forbidden one.
   */
  async accessTo(principal: Principal, projectId: string | undefined): Promise<ProjectAccess> {
    if (projectId !== undefined && !/^\d{1,10}$/.test(projectId))
      throw new AccessDenied(400, `project_id must be a project id, got "${projectId}"`);
    if (principal.kind === 'project-secret') {
      if (projectId !== undefined && Number(projectId) !== principal.project.id) {
        throw new AccessDenied(403, `these credentials do not give access to project ${projectId}`);
      }
      return projectAccess(principal.project, 'admin', { kind: 'project-secret', projectId: principal.project.id });
    }
    if (projectId === undefined) throw new AccessDenied(400, 'project_id is required with service-account credentials');
    // An id no project can have (past the column's range) names nothing: never sent to SQL.
    const project = isDatabaseId(Number(projectId)) ? await this.projects.byId(Number(projectId)) : undefined;
    const role =
      project &&
      (effectiveRole(principal.account, principal.memberships, project, this.clock.date()) as Role | undefined);
    if (!project || !role) throw new AccessDenied(403, `these credentials do not give access to project ${projectId}`);
    return projectAccess(project, role, {
      kind: 'service-account',
      id: principal.account.id,
      username: principal.account.username,
      userId: principal.account.userId,
    });
  }
}
