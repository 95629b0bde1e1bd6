import { ProfileCounts, ProfileCountsRepository } from '@analytics/profile-store';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { UsageRange } from './usage-range';
import { EventsUsage, UsageRepository } from './usage.repository';

/** What a project holds, as GET /api/app/projects/{id}/usage shows it. */
export interface ProjectUsage {
  events: EventsUsage;
  bytesOnDisk: number;
  profiles: ProfileCounts;
}

/** A project's usage: its events (deduplicated), their estimated share of the disk, its profiles. */
@Injectable()
export class UsageService {
  constructor(
    private readonly events: UsageRepository,
    private readonly profiles: ProfileCountsRepository,
  ) {}

  async read(scope: ProjectScope, range: UsageRange): Promise<ProjectUsage> {
    const [events, bytesOnDisk, profiles] = await Promise.all([
      this.events.events(scope, range),
      this.events.bytesOnDisk(scope),
      this.profiles.count(scope),
    ]);
    return { events, bytesOnDisk, profiles };
  }
}
