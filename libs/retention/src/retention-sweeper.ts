import { Clock } from '@analytics/clock';
import { EventsRetentionRepository } from '@analytics/event-store';
import { JobQueue } from '@analytics/jobs';
import { ProjectsService } from '@analytics/projects';
import { ProjectScope, projectScope } from '@analytics/tenancy';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { monthPlan, sweepLine } from './retention-sweep';

export const RETENTION_SWEEP_QUEUE = 'events-retention-sweep';

/** Daily at 00:20 UTC: each day's expired events are gone within the day that follows. */
export const RETENTION_SWEEP_CRON = '20 0 * * *';

/** What one sweep did, month by month (202601 = January 2026). */
export interface SweepReport {
  dropped: number[];
  rewritten: number[];
}

/**
 * Frees the disk of expired events (docs/retention.md): readers already hide them; this removes them,
 * once a day on one replica (a scheduled job), a whole month at a time where it can.
 */
@Injectable()
export class RetentionSweeper implements OnModuleInit {
  private readonly logger = new Logger(RetentionSweeper.name);

  constructor(
    private readonly queue: JobQueue,
    private readonly projects: ProjectsService,
    private readonly events: EventsRetentionRepository,
    private readonly clock: Clock,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.queue.define(RETENTION_SWEEP_QUEUE, {
      retryLimit: 3,
      retryDelaySeconds: 600,
      expireInSeconds: 6 * 3600,
    });
    await this.queue.work<object>(RETENTION_SWEEP_QUEUE, async () => {
      await this.sweep();
    });
    await this.queue.schedule(RETENTION_SWEEP_QUEUE, RETENTION_SWEEP_CRON, {});
  }

  /** Safe to repeat: a second run the same day finds nothing left to remove. */
  async sweep(): Promise<SweepReport> {
    const now = this.clock.now();
    const lines = new Map<number, number>();
    const scopes = new Map<number, ProjectScope>();
    const months = new Set<number>();
    for (const project of await this.projects.withRetention()) {
      // A job over the stored project rows, each naming its project.
      const scope = projectScope(project.id, project.dataRetentionDays);
      const line = sweepLine(project.dataRetentionDays!, now);
      lines.set(project.id, line);
      scopes.set(project.id, scope);
      for (const month of await this.events.expiredMonths(scope, line)) months.add(month);
    }
    const report: SweepReport = { dropped: [], rewritten: [] };
    for (const month of [...months].sort((a, b) => a - b)) {
      const plan = monthPlan(month, await this.events.projectsIn(month), lines);
      if (plan.drop) {
        await this.events.dropMonth(month);
        report.dropped.push(month);
      } else {
        const expired = plan.expired.map(({ projectId, beforeMs }) => ({ scope: scopes.get(projectId)!, beforeMs }));
        await this.events.deleteExpired(month, expired);
        report.rewritten.push(month);
      }
    }
    if (months.size)
      this.logger.log(
        `retention: dropped month(s) [${report.dropped.join(', ')}], deleted expired events in [${report.rewritten.join(', ')}]`,
      );
    return report;
  }
}
