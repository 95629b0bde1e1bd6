import { Project } from '@analytics/projects';
import { Injectable } from '@nestjs/common';
import { parseBasicCredentials } from './basic-credentials';
import { ProjectAuthenticator } from './project-authenticator';

export type AccessOutcome = { ok: true; project: Project } | { ok: false; status: 401 | 403; message: string };

/**
 * Who may read a project's data (raw export, queries): its secret as the Basic username, with
 * `project_id` optional but, when given, naming that same project. A project token only ingests.
 */
@Injectable()
export class ReadingAccess {
  constructor(private readonly authenticator: ProjectAuthenticator) {}

  async authenticate(authorization: string | undefined, projectIdParam: string | null): Promise<AccessOutcome> {
    const credentials = parseBasicCredentials(authorization);
    if (!credentials) return { ok: false, status: 401, message: 'authentication required: the project secret (or a service account) as HTTP Basic credentials' };
    const project = await this.authenticator.bySecret(credentials.username);
    if (!project) {
      const byToken = await this.authenticator.byToken(credentials.username);
      return { ok: false, status: 401, message: byToken ? 'a project token can only send data; read with the project secret or a service account' : 'invalid credentials' };
    }
    if (projectIdParam !== null && projectIdParam !== String(project.id)) {
      return { ok: false, status: 403, message: `these credentials do not give access to project ${projectIdParam}` };
    }
    return { ok: true, project };
  }
}
