import { Project } from '@analytics/projects';
import { ProjectScope, projectScope } from '@analytics/tenancy';
import { Role } from './roles';

/** Who is acting, on which project, with which role: what the guard attaches to the request. */
export interface ProjectAccess {
  project: Project;
  /** The project as the scope every repository takes: made here, once access to it is established. */
  scope: ProjectScope;
  role: Role;
  /** The credential that acted, for audit fields (`creator`, annotation `user`). */
  actor:
    | { kind: 'project-secret'; projectId: number }
    | { kind: 'service-account'; id: number; username: string; userId: number };
}

/** The access a guard established: the one place a request's project scope is made. */
export function projectAccess(project: Project, role: Role, actor: ProjectAccess['actor']): ProjectAccess {
  return { project, scope: projectScope(project.id, project.dataRetentionDays, project.timezone), role, actor };
}
