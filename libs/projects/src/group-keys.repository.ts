import { Postgres } from '@analytics/postgres';
import { Injectable } from '@nestjs/common';
import { and, eq } from 'drizzle-orm';
import { GroupKey, groupKeys } from './group-keys.schema';

/** The group keys of one project at a time. */
@Injectable()
export class GroupKeysRepository {
  constructor(private readonly postgres: Postgres) {}

  list(projectId: number): Promise<GroupKey[]> {
    return this.postgres.db.select().from(groupKeys).where(eq(groupKeys.projectId, projectId)).orderBy(groupKeys.name);
  }

  async find(projectId: number, name: string): Promise<GroupKey | undefined> {
    const [row] = await this.postgres.db.select().from(groupKeys).where(and(eq(groupKeys.projectId, projectId), eq(groupKeys.name, name)));
    return row;
  }

  /** Creates the key unless it exists; either way returns the stored one. */
  async define(projectId: number, name: string): Promise<GroupKey> {
    await this.postgres.db.insert(groupKeys).values({ projectId, name }).onConflictDoNothing();
    return (await this.find(projectId, name))!;
  }

  async remove(projectId: number, name: string): Promise<boolean> {
    const removed = await this.postgres.db
      .delete(groupKeys)
      .where(and(eq(groupKeys.projectId, projectId), eq(groupKeys.name, name)))
      .returning();
    return removed.length > 0;
  }
}
