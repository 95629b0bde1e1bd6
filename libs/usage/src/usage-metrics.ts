import { Clock } from '@analytics/clock';
import { MetricsService } from '@analytics/observability';
import { ProfileCountsRepository } from '@analytics/profile-store';
import { Injectable, Logger } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { ProjectFigures, UsageSnapshot, usageSnapshot } from './usage-snapshot';
import { UsageRepository } from './usage.repository';

/** A scrape reuses figures this young: reading them scans every project's rows. */
export const USAGE_SNAPSHOT_MAX_AGE_MS = 60_000;

type Figure = (figures: ProjectFigures) => number | undefined;

/**
 * Per-project usage gauges on /metrics (docs/settings.md, "Usage gauges"): read at scrape time
 * from a snapshot at most a minute old, one refresh at a time. A failed refresh keeps the last
 * figures (their age shows in `analytics_usage_snapshot_timestamp_seconds`) and is retried a
 * minute later, so an engine outage neither fails the scrape nor adds a scan to every one.
 */
@Injectable()
export class UsageMetrics {
  private readonly logger = new Logger(UsageMetrics.name);
  private snapshot: UsageSnapshot = { takenAt: 0, projects: new Map() };
  private attemptedAt = -Infinity;
  private refreshing?: Promise<void>;

  constructor(
    metrics: MetricsService,
    private readonly clock: Clock,
    private readonly events: UsageRepository,
    private readonly profiles: ProfileCountsRepository,
  ) {
    const gauge = (name: string, help: string, figure: Figure) => {
      const current = () => this.current();
      new Gauge({
        name,
        help,
        labelNames: ['project_id'] as const,
        registers: [metrics.registry],
        async collect() {
          const { projects } = await current();
          this.reset();
          for (const [project, figures] of projects) {
            const value = figure(figures);
            if (value !== undefined) this.set({ project_id: project }, value);
          }
        },
      });
    };
    gauge(
      'analytics_project_events_stored',
      'Events stored per project (rows, duplicates not yet merged included)',
      (f) => f.events,
    );
    gauge(
      'analytics_project_bytes_on_disk',
      "Estimated bytes on disk of the project's events: the events table's bytes times the project's share of its rows",
      (f) => f.bytesOnDisk,
    );
    gauge('analytics_project_profiles', 'User profiles stored per project', (f) => f.profiles);
    gauge('analytics_project_groups', 'Group profiles stored per project (every group key)', (f) => f.groups);
    gauge(
      'analytics_project_oldest_event_timestamp_seconds',
      'Event time of the oldest event stored per project (projects with events only)',
      (f) => f.oldestEvent,
    );
    const current = () => this.current();
    new Gauge({
      name: 'analytics_usage_snapshot_timestamp_seconds',
      help: 'When the per-project usage gauges were read (0 before the first read succeeded)',
      registers: [metrics.registry],
      async collect() {
        this.set((await current()).takenAt / 1000);
      },
    });
  }

  /** The snapshot, refreshed first when it is older than a minute and no refresh was tried within one. */
  private async current(): Promise<UsageSnapshot> {
    if (this.clock.now() - this.attemptedAt >= USAGE_SNAPSHOT_MAX_AGE_MS) this.refreshing ??= this.refresh();
    await this.refreshing;
    return this.snapshot;
  }

  private async refresh(): Promise<void> {
    this.attemptedAt = this.clock.now();
    try {
      const [events, tableBytes, profiles] = await Promise.all([
        this.events.storedEventsByProject(),
        this.events.eventsTableBytes(),
        this.profiles.countByProject(),
      ]);
      this.snapshot = usageSnapshot(this.clock.now(), events, tableBytes, profiles);
    } catch (error) {
      this.logger.warn(`usage gauges keep their last figures: ${(error as Error).message}`);
    } finally {
      this.refreshing = undefined;
    }
  }
}
