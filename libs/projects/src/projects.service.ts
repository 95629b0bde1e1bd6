import { generateCredential, hashSecret, secretLookupKey, verifySecret } from '@analytics/secrets';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { ProjectsRepository } from './projects.repository';
import { IdentityMode } from '@analytics/events';
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

/** What this process did to a project: created it, or changed it (its secret, name, region or identity mode). */
export type ProjectChange = 'created' | 'changed';

@Injectable()
export class ProjectsService {
  private readonly listeners = new Set<(change: ProjectChange) => void>();

  constructor(private readonly repository: ProjectsRepository) {}

  /** Called after this process creates or changes a project, so that caches of lookups can forget. */
  onChange(listener: (change: ProjectChange) => void): void {
    this.listeners.add(listener);
  }

  createOrganization(name: string): Promise<Organization> {
    return this.repository.createOrganization(name);
  }

  async createProject(
    organizationId: number,
    name: string,
    credentials: ProjectCredentials = {},
    region: DataRegion = 'US',
    timezone?: string,
  ): Promise<CreatedProject> {
    const secret = credentials.secret ?? generateCredential();
    const project = await this.repository.createProject({
      organizationId,
      name,
      region,
      timezone,
      token: credentials.token ?? generateCredential(),
      secretHash: await hashSecret(secret),
      secretLookup: secretLookupKey(secret),
    });
    this.notify('created');
    return { project, secret };
  }

  /**
   * The installation's own organization: the first one, which the first start creates. Its owners
   * administer the whole installation (a backup holds every organization's data).
   */
  firstOrganization(): Promise<Organization | undefined> {
    return this.repository.firstOrganization();
  }

  findOrganization(id: number): Promise<Organization | undefined> {
    return this.repository.findOrganization(id);
  }

  /** Projects whose events expire (docs/retention.md). */
  withRetention(): Promise<Project[]> {
    return this.repository.withRetention();
  }

  listByOrganization(organizationId: number): Promise<Project[]> {
    return this.repository.listByOrganization(organizationId);
  }

  /** A new secret; the old one stops working (at once here, within the auth cache's 30 s elsewhere). */
  async rotateSecret(scope: ProjectScope): Promise<CreatedProject | undefined> {
    const secret = generateCredential();
    const project = await this.repository.update(scope, {
      secretHash: await hashSecret(secret),
      secretLookup: secretLookupKey(secret),
    });
    this.notify('changed');
    return project && { project, secret };
  }

  /** Changes what is given; an empty change (every field optional) changes nothing and answers the project. */
  async update(
    scope: ProjectScope,
    changes: {
      name?: string;
      region?: DataRegion;
      identityMerge?: IdentityMode;
      dataRetentionDays?: number | null;
      timezone?: string;
    },
  ): Promise<Project | undefined> {
    const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    if (!Object.keys(given).length) return this.repository.findById(scope.projectId);
    const project = await this.repository.update(scope, given);
    this.notify('changed');
    return project;
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

  private notify(change: ProjectChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
