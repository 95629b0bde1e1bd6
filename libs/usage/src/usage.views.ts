import { ProjectUsage } from './usage.service';

/** The usage answer; `retentionDays` is the project's `data_retention_days` (null: kept for ever, docs/retention.md). */
export function usageJson({ events, bytesOnDisk, profiles }: ProjectUsage, retentionDays: number | null) {
  return {
    events: {
      total: events.total,
      oldest: events.oldest?.toISOString() ?? null,
      newest: events.newest?.toISOString() ?? null,
      per_day: events.perDay,
    },
    bytes_on_disk: bytesOnDisk,
    profiles: profiles.users,
    groups: profiles.groups,
    data_retention_days: retentionDays,
  };
}
