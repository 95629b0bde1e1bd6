import { generateCredential, hashSecret, secretLookupKey, verifySecret } from '@analytics/secrets';
import { Injectable } from '@nestjs/common';
import { ProjectsRepository } from './projects.repository';
import { DataRegion, Organization, Project } from './projects.schema';

export interface CreatedProject {
  project: Project;
  /** The plaintext secret, shown once: only its hash is stored. */
  secret: string;
}

export interface ProjectCredentials {
  token?: string;
  secret?: string;
}

@Injectable()
export class ProjectsService {
  constructor(private readonly repository: ProjectsRepository) {}

  createOrganization(name: string): Promise<Organization> {
    return this.repository.createOrganization(name);
  }

  async createProject(
    organizationId: number,
    name: string,
    credentials: ProjectCredentials = {},
    region: DataRegion = 'US',
  ): Promise<CreatedProject> {
    const secret = credentials.secret ?? generateCredential();
    const project = await this.repository.createProject({
      organizationId,
      name,
      region,
      token: credentials.token ?? generateCredential(),
      secretHash: await hashSecret(secret),
      secretLookup: secretLookupKey(secret),
    });
    return { project, secret };
  }

  findOrganization(id: number): Promise<Organization | undefined> {
    return this.repository.findOrganization(id);
  }

  listByOrganization(organizationId: number): Promise<Project[]> {
    return this.repository.listByOrganization(organizationId);
  }

  /** A new secret; the old one stops working (at once here, within the auth cache's 30 s elsewhere). */
  async rotateSecret(projectId: number): Promise<CreatedProject | undefined> {
    const secret = generateCredential();
    const project = await this.repository.update(projectId, { secretHash: await hashSecret(secret), secretLookup: secretLookupKey(secret) });
    return project && { project, secret };
  }

  /** Changes what is given; an empty change (every field optional) changes nothing and answers the project. */
  update(projectId: number, changes: { name?: string; region?: DataRegion }): Promise<Project | undefined> {
    const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    return Object.keys(given).length ? this.repository.update(projectId, given) : this.repository.findById(projectId);
  }

  findById(id: number): Promise<Project | undefined> {
    return this.repository.findById(id);
  }

  findByToken(token: string): Promise<Project | undefined> {
    return this.repository.findByToken(token);
  }

  /** The project whose secret this is, if any. */
  async findBySecret(secret: string): Promise<Project | undefined> {
    for (const candidate of await this.repository.findBySecretLookup(secretLookupKey(secret))) {
      if (await verifySecret(secret, candidate.secretHash)) return candidate;
    }
    return undefined;
  }
}
