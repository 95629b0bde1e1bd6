import { Postgres } from '@analytics/postgres';
import { hashSecret } from '@analytics/secrets';
import { Injectable } from '@nestjs/common';
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  OAuthToken,
  oauthTokens,
  ProjectMembership,
  RoleName,
  ServiceAccount,
  serviceAccountProjects,
  serviceAccounts,
  User,
  users,
} from './accounts.schema';

export interface NewServiceAccount {
  organizationId: number;
  username: string;
  secretHash: string;
  role: RoleName;
  creator: number | null;
  expires: Date | null;
  projects: { id: number; role: RoleName }[];
}

@Injectable()
export class AccountsRepository {
  constructor(private readonly postgres: Postgres) {}

  private get db() {
    return this.postgres.db;
  }

  /** The account, its own user record and its project roles, in one transaction. */
  async createServiceAccount(account: NewServiceAccount): Promise<ServiceAccount> {
    return this.db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({ organizationId: account.organizationId, firstName: account.username })
        .returning();
      const [created] = await tx
        .insert(serviceAccounts)
        .values({ ...account, userId: user.id })
        .returning();
      if (account.projects.length) {
        await tx
          .insert(serviceAccountProjects)
          .values(account.projects.map((p) => ({ serviceAccountId: created.id, projectId: p.id, role: p.role })));
      }
      return created;
    });
  }

  async findByUsername(username: string): Promise<ServiceAccount | undefined> {
    const [row] = await this.db.select().from(serviceAccounts).where(eq(serviceAccounts.username, username));
    return row;
  }

  async findById(organizationId: number, id: number): Promise<ServiceAccount | undefined> {
    const [row] = await this.db
      .select()
      .from(serviceAccounts)
      .where(and(eq(serviceAccounts.organizationId, organizationId), eq(serviceAccounts.id, id)));
    return row;
  }

  async findAnyById(id: number): Promise<ServiceAccount | undefined> {
    const [row] = await this.db.select().from(serviceAccounts).where(eq(serviceAccounts.id, id));
    return row;
  }

  listByOrganization(organizationId: number): Promise<ServiceAccount[]> {
    return this.db
      .select()
      .from(serviceAccounts)
      .where(eq(serviceAccounts.organizationId, organizationId))
      .orderBy(serviceAccounts.id);
  }

  async delete(organizationId: number, id: number): Promise<boolean> {
    const deleted = await this.db
      .delete(serviceAccounts)
      .where(and(eq(serviceAccounts.organizationId, organizationId), eq(serviceAccounts.id, id)))
      .returning({ id: serviceAccounts.id });
    return deleted.length > 0;
  }

  memberships(serviceAccountIds: number[]): Promise<ProjectMembership[]> {
    if (!serviceAccountIds.length) return Promise.resolve([]);
    return this.db
      .select()
      .from(serviceAccountProjects)
      .where(inArray(serviceAccountProjects.serviceAccountId, serviceAccountIds));
  }

  async addMemberships(rows: ProjectMembership[]): Promise<void> {
    if (!rows.length) return;
    await this.db
      .insert(serviceAccountProjects)
      .values(rows)
      .onConflictDoUpdate({
        target: [serviceAccountProjects.serviceAccountId, serviceAccountProjects.projectId],
        set: { role: sql`excluded.role` },
      });
  }

  async removeMemberships(projectId: number, serviceAccountIds: number[]): Promise<void> {
    if (!serviceAccountIds.length) return;
    await this.db
      .delete(serviceAccountProjects)
      .where(
        and(
          eq(serviceAccountProjects.projectId, projectId),
          inArray(serviceAccountProjects.serviceAccountId, serviceAccountIds),
        ),
      );
  }

  async setSecret(id: number, secret: string): Promise<void> {
    await this.db
      .update(serviceAccounts)
      .set({ secretHash: await hashSecret(secret) })
      .where(eq(serviceAccounts.id, id));
  }

  async recordLastUsed(usedAt: Map<number, Date>): Promise<void> {
    for (const [id, at] of usedAt)
      await this.db.update(serviceAccounts).set({ lastUsed: at }).where(eq(serviceAccounts.id, id));
  }

  async findUser(id: number): Promise<User | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id));
    return row;
  }

  async createOAuthToken(token: Omit<OAuthToken, 'id' | 'createdAt'>): Promise<OAuthToken> {
    const [row] = await this.db.insert(oauthTokens).values(token).returning();
    return row;
  }

  findOAuthTokensByLookup(lookup: string): Promise<OAuthToken[]> {
    return this.db.select().from(oauthTokens).where(eq(oauthTokens.tokenLookup, lookup));
  }
}
