import { Clock } from '@analytics/clock';
import { Postgres } from '@analytics/postgres';
import { pgScopeEq, ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { and, asc, eq } from 'drizzle-orm';
import { NewSavedReportRow, ReportKind, SavedReportRow, savedReports } from './saved-reports.schema';

export type SavedReportChanges = Partial<Pick<SavedReportRow, 'name' | 'description' | 'isVisible' | 'definition'>>;

/** Saved reports; every statement takes one project's scope and one kind. */
@Injectable()
export class SavedReportsRepository {
  constructor(
    private readonly postgres: Postgres,
    private readonly clock: Clock,
  ) {}

  private get db() {
    return this.postgres.db;
  }

  private where(scope: ProjectScope, kind: ReportKind, id?: number) {
    const conditions = [pgScopeEq(savedReports.projectId, scope), eq(savedReports.kind, kind)];
    if (id !== undefined) conditions.push(eq(savedReports.id, id));
    return and(...conditions);
  }

  list(scope: ProjectScope, kind: ReportKind): Promise<SavedReportRow[]> {
    return this.db.select().from(savedReports).where(this.where(scope, kind)).orderBy(asc(savedReports.id));
  }

  async find(scope: ProjectScope, kind: ReportKind, id: number): Promise<SavedReportRow | undefined> {
    const [row] = await this.db
      .select()
      .from(savedReports)
      .where(this.where(scope, kind, id));
    return row;
  }

  async create(scope: ProjectScope, report: Omit<NewSavedReportRow, 'projectId'>): Promise<SavedReportRow> {
    const [row] = await this.db
      .insert(savedReports)
      .values({ ...report, projectId: scope.projectId })
      .returning();
    return row;
  }

  async update(
    scope: ProjectScope,
    kind: ReportKind,
    id: number,
    changes: SavedReportChanges,
  ): Promise<SavedReportRow | undefined> {
    const [row] = await this.db
      .update(savedReports)
      .set({ ...changes, updatedAt: this.clock.date() })
      .where(this.where(scope, kind, id))
      .returning();
    return row;
  }

  async delete(scope: ProjectScope, kind: ReportKind, id: number): Promise<boolean> {
    const deleted = await this.db
      .delete(savedReports)
      .where(this.where(scope, kind, id))
      .returning({ id: savedReports.id });
    return deleted.length > 0;
  }
}
