import { Clock } from '@analytics/clock';
import { Postgres } from '@analytics/postgres';
import { pgScopeEq, ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { and, asc, eq } from 'drizzle-orm';
import { BoardRow, boards, NewBoardRow } from './boards.schema';

export type BoardChanges = Partial<
  Pick<BoardRow, 'name' | 'description' | 'tiles' | 'dateRange' | 'whereFilter' | 'shareNonce' | 'sharedUntil'>
> & { updatedBy?: string };

/** Boards; every statement but the share link's lookup takes one project's scope. */
@Injectable()
export class BoardsRepository {
  constructor(
    private readonly postgres: Postgres,
    private readonly clock: Clock,
  ) {}

  private get db() {
    return this.postgres.db;
  }

  private where(scope: ProjectScope, id?: number) {
    return id === undefined
      ? pgScopeEq(boards.projectId, scope)
      : and(pgScopeEq(boards.projectId, scope), eq(boards.id, id));
  }

  list(scope: ProjectScope): Promise<BoardRow[]> {
    return this.db.select().from(boards).where(this.where(scope)).orderBy(asc(boards.id));
  }

  async find(scope: ProjectScope, id: number): Promise<BoardRow | undefined> {
    const [row] = await this.db.select().from(boards).where(this.where(scope, id));
    return row;
  }

  /**
   * The board a share link names, whatever its project: the link's signature (checked by the caller
   * against this row's project and nonce) is what grants access, and the scope is made from the row.
   */
  async findShared(id: number): Promise<BoardRow | undefined> {
    const [row] = await this.db.select().from(boards).where(eq(boards.id, id));
    return row;
  }

  async create(scope: ProjectScope, board: Omit<NewBoardRow, 'projectId'>): Promise<BoardRow> {
    const [row] = await this.db
      .insert(boards)
      .values({ ...board, projectId: scope.projectId })
      .returning();
    return row;
  }

  async update(scope: ProjectScope, id: number, changes: BoardChanges): Promise<BoardRow | undefined> {
    const [row] = await this.db
      .update(boards)
      .set({ ...changes, updatedAt: this.clock.date() })
      .where(this.where(scope, id))
      .returning();
    return row;
  }

  async delete(scope: ProjectScope, id: number): Promise<boolean> {
    const deleted = await this.db.delete(boards).where(this.where(scope, id)).returning({ id: boards.id });
    return deleted.length > 0;
  }
}
