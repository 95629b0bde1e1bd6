import { ProfileCounts } from '@analytics/profile-store';
import type { StoredEvents } from './usage.repository';

/** At most this many projects get a `project_id` label of their own; the rest are summed as `other`. */
export const MAX_LABELLED_PROJECTS = 100;
/** The label of the projects past {@link MAX_LABELLED_PROJECTS}, summed. */
export const OTHER_PROJECTS = 'other';

export interface ProjectFigures {
  events: number;
  bytesOnDisk: number;
  profiles: number;
  groups: number;
  /** Seconds since the epoch of the oldest stored event; undefined without events. */
  oldestEvent?: number;
}

/** Every project's figures at one time, keyed by the `project_id` label. */
export interface UsageSnapshot {
  takenAt: number;
  projects: Map<string, ProjectFigures>;
}

/** A project's estimated bytes on disk: the events table's bytes shared out by stored rows. */
export const diskShare = (tableBytes: number, projectRows: number, tableRows: number): number =>
  tableRows === 0 ? 0 : Math.round((tableBytes * projectRows) / tableRows);

function add(sum: ProjectFigures, figures: ProjectFigures): ProjectFigures {
  const oldest = [sum.oldestEvent, figures.oldestEvent].filter((t): t is number => t !== undefined);
  return {
    events: sum.events + figures.events,
    bytesOnDisk: sum.bytesOnDisk + figures.bytesOnDisk,
    profiles: sum.profiles + figures.profiles,
    groups: sum.groups + figures.groups,
    oldestEvent: oldest.length ? Math.min(...oldest) : undefined,
  };
}

/**
 * The gauges' figures: each project's stored rows and profiles, the events table's bytes shared out
 * by rows. The largest projects (by events, then profiles) are labelled by id, at most
 * {@link MAX_LABELLED_PROJECTS}; the rest are one `other` series, so totals stay whole.
 */
export function usageSnapshot(
  takenAt: number,
  events: readonly StoredEvents[],
  tableBytes: number,
  profiles: ReadonlyMap<number, ProfileCounts>,
): UsageSnapshot {
  const tableRows = events.reduce((sum, row) => sum + row.events, 0);
  const byProject = new Map<number, ProjectFigures>();
  const empty = (): ProjectFigures => ({ events: 0, bytesOnDisk: 0, profiles: 0, groups: 0 });
  for (const row of events) {
    byProject.set(row.projectId, {
      ...empty(),
      events: row.events,
      bytesOnDisk: diskShare(tableBytes, row.events, tableRows),
      oldestEvent: row.oldest.getTime() / 1000,
    });
  }
  for (const [projectId, counts] of profiles) {
    byProject.set(projectId, {
      ...(byProject.get(projectId) ?? empty()),
      profiles: counts.users,
      groups: counts.groups,
    });
  }
  const ranked = [...byProject].sort(
    ([a, x], [b, y]) => y.events - x.events || y.profiles + y.groups - (x.profiles + x.groups) || a - b,
  );
  const projects = new Map<string, ProjectFigures>();
  ranked.slice(0, MAX_LABELLED_PROJECTS).forEach(([id, figures]) => projects.set(String(id), figures));
  const rest = ranked.slice(MAX_LABELLED_PROJECTS);
  if (rest.length) projects.set(OTHER_PROJECTS, rest.map(([, figures]) => figures).reduce(add, empty()));
  return { takenAt, projects };
}
