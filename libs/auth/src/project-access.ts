import { Project } from '@analytics/projects';
import { Role } from './roles';

/** Who is acting, on which project, with which role: what the guard attaches to the request. */
export interface ProjectAccess {
  project: Project;
  role: Role;
  /** The credential that acted, for audit fields (`creator`, annotation `user`). */
  actor: { kind: 'project-secret'; projectId: number } | { kind: 'service-account'; id: number; username: string; userId: number };
}
