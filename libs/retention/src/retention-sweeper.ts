import { Clock } from '@analytics/clock';
import { EventsRetentionRepository } from '@analytics/event-store';
import { JobQueue } from '@analytics/jobs';
import { ProjectsService } from '@analytics/projects';
import { projectScope } from '@analytics/tenancy';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { sweepLine } from './retention-sweep';

export const RETENTION_SWEEP_QUEUE = 'events-retention-sweep';

/** Daily at 00:20 UTC: each day's expired events are gone within the day that follows. */
export const RETENTION_SWEEP_CRON = '20 0 * * *';

/** The months one sweep deleted expired events in (202601 = January 2026). */
export interface SweepReport {
  rewritten: number[];
}

/**
 * Frees the disk of expired events (docs/retention.md): readers already hide them; this removes them,
 * once a day on one replica (a scheduled job), with one mutation per month that holds some. It never
 * drops a month's partition whole: an import of another project's old events into that month between
 * the check and the drop would be lost without a word; the mutation names its projects, so such rows stay.
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
    // A job over the stored project rows, each naming its project.
    const lines = (await this.projects.withRetention()).map((project) => ({
      scope: projectScope(project.id, project.dataRetentionDays),
      beforeMs: sweepLine(project.dataRetentionDays!, now),
    }));
    const expired = await this.events.expiredMonths(lines);
    const report: SweepReport = { rewritten: [] };
    for (const [month, projects] of expired) {
      await this.events.deleteExpired(month, projects);
      report.rewritten.push(month);
    }
    if (expired.size) this.logger.log(`retention: deleted expired events in month(s) ${report.rewritten.join(', ')}`);
    return report;
  }
}
