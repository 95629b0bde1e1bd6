import { Clock } from '@analytics/clock';
import { Postgres } from '@analytics/postgres';
import { Injectable } from '@nestjs/common';
import { and, asc, eq } from 'drizzle-orm';
import { NewSavedReportRow, ReportKind, SavedReportRow, savedReports } from './saved-reports.schema';

export type SavedReportChanges = Partial<Pick<SavedReportRow, 'name' | 'description' | 'isVisible' | 'definition'>>;

/** Saved reports; every statement is scoped to one project and one kind. */
@Injectable()
export class SavedReportsRepository {
  constructor(
    private readonly postgres: Postgres,
    private readonly clock: Clock,
  ) {}

  private get db() {
    return this.postgres.db;
  }

  private scope(projectId: number, kind: ReportKind, id?: number) {
    const conditions = [eq(savedReports.projectId, projectId), eq(savedReports.kind, kind)];
    if (id !== undefined) conditions.push(eq(savedReports.id, id));
    return and(...conditions);
  }

  list(projectId: number, kind: ReportKind): Promise<SavedReportRow[]> {
    return this.db.select().from(savedReports).where(this.scope(projectId, kind)).orderBy(asc(savedReports.id));
  }

  async find(projectId: number, kind: ReportKind, id: number): Promise<SavedReportRow | undefined> {
    const [row] = await this.db.select().from(savedReports).where(this.scope(projectId, kind, id));
    return row;
  }

  async create(report: NewSavedReportRow): Promise<SavedReportRow> {
    const [row] = await this.db.insert(savedReports).values(report).returning();
    return row;
  }

  async update(projectId: number, kind: ReportKind, id: number, changes: SavedReportChanges): Promise<SavedReportRow | undefined> {
    const [row] = await this.db
      .update(savedReports)
      .set({ ...changes, updatedAt: this.clock.date() })
      .where(this.scope(projectId, kind, id))
      .returning();
    return row;
  }

  async delete(projectId: number, kind: ReportKind, id: number): Promise<boolean> {
    const deleted = await this.db.delete(savedReports).where(this.scope(projectId, kind, id)).returning({ id: savedReports.id });
    return deleted.length > 0;
  }
}
