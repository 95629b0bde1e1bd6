import { IdentityMode } from '@analytics/events';
import { DataRegion, Project, ProjectsService } from '@analytics/projects';
import { isTimeZoneName, ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { ManagementError, ManagementErrorCode } from './management-error';
import { TIME_ZONE_MESSAGE } from './management.dto';
import { ProjectEventsRepository } from './project-events.repository';

/** Whether Node's Intl can compute in the zone: the reports' calendar (libs/query/src/time) relies on it. */
function intlKnows(name: string): boolean {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone !== undefined;
  } catch {
    return false;
  }
}

export interface ProjectSettingsChange {
  name?: string;
  region?: DataRegion;
  identityMerge?: IdentityMode;
  /** Days of events kept; null keeps them for ever (docs/retention.md). */
  dataRetentionDays?: number | null;
  /** The reports' IANA time zone (docs/queries.md, "Time zone"). */
  timezone?: string;
}

/** The rules of PATCH /api/app/projects/{id} (docs/identity.md, "The project setting"). */
@Injectable()
export class ProjectSettingsService {
  constructor(
    private readonly projects: ProjectsService,
    private readonly events: ProjectEventsRepository,
  ) {}

  /**
   * `identity_merge` changes only while the project holds no events, as in Mixpanel: the mode
   * decides which stored events linked which ids, so a switch would re-read history under other
   * rules. Setting the current mode again is no change.
   */
  async update(scope: ProjectScope, change: ProjectSettingsChange): Promise<Project | undefined> {
    const { projectId } = scope;
    const { identityMerge } = change;
    if (identityMerge !== undefined) {
      // The stored setting, not the request's cached copy of the project: that may be seconds old.
      const current = await this.projects.findById(projectId);
      if (!current) return undefined;
      if (identityMerge !== current.identityMerge && (await this.events.hasEvents(scope))) {
        throw new ManagementError(
          ManagementErrorCode.IdentityMergeLocked,
          `identity_merge can change only while the project has no events; project ${projectId} already holds events under '${current.identityMerge}'`,
        );
      }
    }
    if (change.timezone !== undefined) await this.checkTimeZone(change.timezone);
    return this.projects.update(scope, change);
  }

  /**
   * A zone a project may use: one both Node (the reports' day boundaries, labels and references) and
   * ClickHouse (their buckets) know, by the exact name ClickHouse spells (its names are case-sensitive).
   * Their tz databases are released apart: a zone new in one (America/Coyhaique, 2025, is in Node 24's
   * and not in ClickHouse 26.7's) is refused until both have it.
   */
  async checkTimeZone(name: string): Promise<string> {
    if (!isTimeZoneName(name) || !intlKnows(name) || !(await this.events.knowsTimeZone(name))) {
      throw new ManagementError(ManagementErrorCode.UnknownTimeZone, `${TIME_ZONE_MESSAGE}; "${name}" is not one`);
    }
    return name;
  }
}
