import { Clock } from '@analytics/clock';
import { JobQueue } from '@analytics/jobs';
import { ProjectsService } from '@analytics/projects';
import { projectScope } from '@analytics/tenancy';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { ALERT_CADENCES, CADENCE_MS } from './alert-rule';
import { ALERT_SETTINGS, AlertSettings } from './alert-settings';
import { AlertChecker } from './alert-checker';
import { DueAlertsRepository } from './alerts.repository';

export const ALERT_SWEEP_QUEUE = 'alerts-sweep';
export const ALERT_CHECK_QUEUE = 'alert-check';

interface CheckJob {
  alertId: number;
  projectId: number;
}

const HOUR_MS = 3_600_000;

/**
 * The schedule: a pg-boss cron job (one per occurrence across replicas) finds the alerts due and
 * files one check job each, keyed by alert and hour, so a sweep run twice in an hour files nothing
 * new; any replica works the checks.
 */
@Injectable()
export class AlertSweep implements OnModuleInit {
  constructor(
    private readonly queue: JobQueue,
    private readonly due: DueAlertsRepository,
    private readonly projects: ProjectsService,
    private readonly checker: AlertChecker,
    private readonly clock: Clock,
    @Inject(ALERT_SETTINGS) private readonly settings: AlertSettings,
  ) {}

  async onModuleInit(): Promise<void> {
    // A check records its own failures; one that throws anyway (Postgres gone) waits for the next sweep.
    const { maxAttempts, timeoutMs, backoffMs } = this.settings;
    const deliverySeconds = Math.ceil((maxAttempts * timeoutMs + 2 ** maxAttempts * backoffMs) / 1000);
    await this.queue.define(ALERT_CHECK_QUEUE, { retryLimit: 0, expireInSeconds: 300 + deliverySeconds });
    await this.queue.define(ALERT_SWEEP_QUEUE, { retryLimit: 2, retryDelaySeconds: 60, expireInSeconds: 600 });
    const polling = { pollingIntervalSeconds: this.settings.pollingIntervalSeconds };
    await this.queue.work<CheckJob>(ALERT_CHECK_QUEUE, (job) => this.check(job.payload), {
      ...polling,
      concurrency: 2,
    });
    await this.queue.work<object>(ALERT_SWEEP_QUEUE, () => this.sweep().then(() => undefined), polling);
    await this.queue.schedule(ALERT_SWEEP_QUEUE, this.settings.sweepCron, {});
  }

  /** Files a check for every enabled alert not checked within its cadence; returns how many. */
  async sweep(): Promise<number> {
    const now = this.clock.now();
    const hour = Math.floor(now / HOUR_MS);
    let filed = 0;
    for (const cadence of ALERT_CADENCES) {
      const due = await this.due.due(cadence, new Date(now - CADENCE_MS[cadence]));
      const jobs = due.map((alert) => ({
        payload: { alertId: alert.id, projectId: alert.projectId },
        key: `${alert.id}:${hour}`,
      }));
      await this.queue.enqueueMany<CheckJob>(ALERT_CHECK_QUEUE, jobs);
      filed += jobs.length;
    }
    return filed;
  }

  /** A job over a stored alert row, which names its project. */
  private async check({ alertId, projectId }: CheckJob): Promise<void> {
    const project = await this.projects.findById(projectId);
    if (!project) return;
    // The project's time zone too: the report's days, and when its latest one has ended, are the zone's.
    await this.checker.check(projectScope(projectId, project.dataRetentionDays ?? null, project.timezone), alertId);
  }
}
