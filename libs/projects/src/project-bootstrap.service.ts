import { AppConfig } from '@analytics/config';
import { Injectable } from '@nestjs/common';
import { ProjectsRepository } from './projects.repository';
import { Organization, Project } from './projects.schema';
import { ProjectsService } from './projects.service';

export interface BootstrappedProject {
  organization: Organization;
  project: Project;
  secret: string;
}

/**
 * First start with empty storage: a default organization and project, with credentials from
 * BOOTSTRAP_PROJECT_TOKEN / BOOTSTRAP_PROJECT_SECRET when set (like a database image's first password).
 */
@Injectable()
export class ProjectBootstrapService {
  constructor(
    private readonly config: AppConfig,
    private readonly repository: ProjectsRepository,
    private readonly projects: ProjectsService,
  ) {}

  /** Returns what it created, or undefined when storage already holds an organization. */
  async ensureDefaultProject(): Promise<BootstrappedProject | undefined> {
    if ((await this.repository.countOrganizations()) > 0) return undefined;
    const organization = await this.projects.createOrganization('Default organization');
    const { project, secret } = await this.projects.createProject(organization.id, 'Default project', {
      token: this.config.bootstrap.projectToken,
      secret: this.config.bootstrap.projectSecret,
    });
    return { organization, project, secret };
  }
}
