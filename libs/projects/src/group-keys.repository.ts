import { Postgres } from '@analytics/postgres';
import { pgScopeEq, ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { and, eq } from 'drizzle-orm';
import { GroupKey, groupKeys } from './group-keys.schema';

/** The group keys of one project at a time: every method takes the project's scope. */
@Injectable()
export class GroupKeysRepository {
  constructor(private readonly postgres: Postgres) {}

  list(scope: ProjectScope): Promise<GroupKey[]> {
    return this.postgres.db
      .select()
      .from(groupKeys)
      .where(pgScopeEq(groupKeys.projectId, scope))
      .orderBy(groupKeys.name);
  }

  async find(scope: ProjectScope, name: string): Promise<GroupKey | undefined> {
    const [row] = await this.postgres.db
      .select()
      .from(groupKeys)
      .where(and(pgScopeEq(groupKeys.projectId, scope), eq(groupKeys.name, name)));
    return row;
  }

  /** Creates the key unless it exists; either way returns the stored one. */
  async define(scope: ProjectScope, name: string): Promise<GroupKey> {
    await this.postgres.db.insert(groupKeys).values({ projectId: scope.projectId, name }).onConflictDoNothing();
    return (await this.find(scope, name))!;
  }

  async remove(scope: ProjectScope, name: string): Promise<boolean> {
    const removed = await this.postgres.db
      .delete(groupKeys)
      .where(and(pgScopeEq(groupKeys.projectId, scope), eq(groupKeys.name, name)))
      .returning();
    return removed.length > 0;
  }
}
