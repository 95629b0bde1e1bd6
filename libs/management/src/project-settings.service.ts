import { IdentityMode } from '@analytics/events';
import { DataRegion, Project, ProjectsService } from '@analytics/projects';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { ManagementError, ManagementErrorCode } from './management-error';
import { ProjectEventsRepository } from './project-events.repository';

export interface ProjectSettingsChange {
  name?: string;
  region?: DataRegion;
  identityMerge?: IdentityMode;
  /** Days of events kept; null keeps them for ever (docs/retention.md). */
  dataRetentionDays?: number | null;
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
    return this.projects.update(scope, change);
  }
}
