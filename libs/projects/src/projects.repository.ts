import { Postgres } from '@analytics/postgres';
import { pgScopeEq, ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { asc, count, eq, isNotNull } from 'drizzle-orm';
import { NewProject, Organization, organizations, Project, projects } from './projects.schema';

@Injectable()
export class ProjectsRepository {
  constructor(private readonly postgres: Postgres) {}

  private get db() {
    return this.postgres.db;
  }

  async countOrganizations(): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(organizations);
    return Number(row.n);
  }

  async createOrganization(name: string): Promise<Organization> {
    const [row] = await this.db.insert(organizations).values({ name }).returning();
    return row;
  }

  async createProject(project: NewProject): Promise<Project> {
    const [row] = await this.db.insert(projects).values(project).returning();
    return row;
  }

  async findById(id: number): Promise<Project | undefined> {
    const [row] = await this.db.select().from(projects).where(eq(projects.id, id));
    return row;
  }

  async findByToken(token: string): Promise<Project | undefined> {
    const [row] = await this.db.select().from(projects).where(eq(projects.token, token));
    return row;
  }

  findBySecretLookup(lookup: string): Promise<Project[]> {
    return this.db.select().from(projects).where(eq(projects.secretLookup, lookup));
  }

  /** The organization created first: the one the installation's first start makes. */
  async firstOrganization(): Promise<Organization | undefined> {
    const [row] = await this.db.select().from(organizations).orderBy(asc(organizations.id)).limit(1);
    return row;
  }

  async findOrganization(id: number): Promise<Organization | undefined> {
    const [row] = await this.db.select().from(organizations).where(eq(organizations.id, id));
    return row;
  }

  /** Changes the project's own row: a write on behalf of the project, so it takes the project's scope. */
  async update(
    scope: ProjectScope,
    changes: Partial<
      Pick<
        Project,
        'name' | 'region' | 'identityMerge' | 'dataRetentionDays' | 'timezone' | 'secretHash' | 'secretLookup'
      >
    >,
  ): Promise<Project | undefined> {
    const [row] = await this.db.update(projects).set(changes).where(pgScopeEq(projects.id, scope)).returning();
    return row;
  }

  /** Every project with an event retention, for the retention sweep (a job over all projects, not a tenant read). */
  withRetention(): Promise<Project[]> {
    return this.db.select().from(projects).where(isNotNull(projects.dataRetentionDays)).orderBy(projects.id);
  }

  listByOrganization(organizationId: number): Promise<Project[]> {
    return this.db.select().from(projects).where(eq(projects.organizationId, organizationId)).orderBy(projects.id);
  }
}
