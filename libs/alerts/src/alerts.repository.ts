import { Clock } from '@analytics/clock';
import { Postgres } from '@analytics/postgres';
import { pgScopeEq, ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { and, asc, desc, eq, isNull, lt, lte, or } from 'drizzle-orm';
import { AlertCadence } from './alert-rule';
import {
  AlertDeliveryRow,
  alertDeliveries,
  AlertRow,
  alerts,
  AlertState,
  NewAlertDeliveryRow,
  NewAlertRow,
} from './alerts.schema';

export type AlertChanges = Partial<
  Pick<AlertRow, 'name' | 'bookmarkId' | 'rule' | 'threshold' | 'series' | 'cadence' | 'webhookUrl' | 'enabled'>
>;

/** The most history rows one read returns, newest first. */
export const HISTORY_LIMIT = 200;

/** Alerts and their deliveries; every statement takes one project's scope. */
@Injectable()
export class AlertsRepository {
  constructor(
    private readonly postgres: Postgres,
    private readonly clock: Clock,
  ) {}

  private get db() {
    return this.postgres.db;
  }

  private where(scope: ProjectScope, id?: number) {
    return and(pgScopeEq(alerts.projectId, scope), ...(id === undefined ? [] : [eq(alerts.id, id)]));
  }

  list(scope: ProjectScope): Promise<AlertRow[]> {
    return this.db.select().from(alerts).where(this.where(scope)).orderBy(asc(alerts.id));
  }

  async find(scope: ProjectScope, id: number): Promise<AlertRow | undefined> {
    const [row] = await this.db.select().from(alerts).where(this.where(scope, id));
    return row;
  }

  async create(scope: ProjectScope, alert: Omit<NewAlertRow, 'projectId'>): Promise<AlertRow> {
    const [row] = await this.db
      .insert(alerts)
      .values({ ...alert, projectId: scope.projectId })
      .returning();
    return row;
  }

  async update(scope: ProjectScope, id: number, changes: AlertChanges): Promise<AlertRow | undefined> {
    const [row] = await this.db
      .update(alerts)
      .set({ ...changes, updatedAt: this.clock.date() })
      .where(this.where(scope, id))
      .returning();
    return row;
  }

  async delete(scope: ProjectScope, id: number): Promise<boolean> {
    return (await this.db.delete(alerts).where(this.where(scope, id)).returning({ id: alerts.id })).length > 0;
  }

  history(scope: ProjectScope, id: number): Promise<AlertDeliveryRow[]> {
    return this.db
      .select()
      .from(alertDeliveries)
      .where(and(pgScopeEq(alertDeliveries.projectId, scope), eq(alertDeliveries.alertId, id)))
      .orderBy(desc(alertDeliveries.id))
      .limit(HISTORY_LIMIT);
  }

  async record(scope: ProjectScope, delivery: Omit<NewAlertDeliveryRow, 'projectId' | 'at'>): Promise<void> {
    await this.db.insert(alertDeliveries).values({ ...delivery, projectId: scope.projectId, at: this.clock.date() });
  }

  /**
   * Claims `period` for the alert: true for exactly one caller per period, whichever replica asks,
   * and never for a period older than one already evaluated. Keys compare as text: they are ISO
   * 8601 with one fixed offset.
   */
  async claimPeriod(scope: ProjectScope, id: number, period: string): Promise<boolean> {
    const claimed = await this.db
      .update(alerts)
      .set({ lastPeriod: period })
      .where(and(this.where(scope, id), or(isNull(alerts.lastPeriod), lt(alerts.lastPeriod, period))))
      .returning({ id: alerts.id });
    return claimed.length > 0;
  }

  async setState(scope: ProjectScope, id: number, state: AlertState): Promise<void> {
    await this.db
      .update(alerts)
      .set({ lastState: state, lastCheckedAt: this.clock.date() })
      .where(this.where(scope, id));
  }
}

/** The sweep's read, across projects: each row names its project, from which the check makes its scope. */
@Injectable()
export class DueAlertsRepository {
  constructor(private readonly postgres: Postgres) {}

  /** Enabled alerts of this cadence not checked since `checkedBefore`. */
  async due(cadence: AlertCadence, checkedBefore: Date): Promise<{ id: number; projectId: number }[]> {
    return this.postgres.db
      .select({ id: alerts.id, projectId: alerts.projectId })
      .from(alerts)
      .where(
        and(
          eq(alerts.enabled, true),
          eq(alerts.cadence, cadence),
          or(isNull(alerts.lastCheckedAt), lte(alerts.lastCheckedAt, checkedBefore)),
        ),
      )
      .orderBy(asc(alerts.id));
  }
}
