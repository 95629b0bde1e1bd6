import { Project } from '@analytics/projects';
import { ProjectUsage } from './usage.service';

/**
 * The project's `data_retention_days` (null: kept forever). Read where the project row holds it,
 * so the usage answer shows the setting the projects lib stores.
 */
export function dataRetentionDays(project: Project): number | null {
  const days = (project as Project & { dataRetentionDays?: number | null }).dataRetentionDays;
  return typeof days === 'number' ? days : null;
}

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
