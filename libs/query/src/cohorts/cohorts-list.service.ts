import { SavedReportsService } from '@analytics/reports';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { CohortMembership } from './cohort-membership';

/** The spec's cohort list item. */
export interface CohortListItem {
  count: number;
  is_visible: 0 | 1;
  description: string;
  created: string;
  project_id: number;
  id: number;
  name: string;
}

/** `YYYY-MM-DD HH:mm:ss`, UTC. */
const listTime = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

@Injectable()
export class CohortsListService {
  constructor(
    private readonly reports: SavedReportsService,
    private readonly membership: CohortMembership,
  ) {}

  /** Every cohort of the project with how many users are in it now. */
  async list(scope: ProjectScope, signal?: AbortSignal): Promise<CohortListItem[]> {
    const [cohorts, resolve] = await Promise.all([
      this.reports.list(scope, 'cohort'),
      this.membership.resolvesIdentities(scope, signal),
    ]);
    const items: CohortListItem[] = [];
    for (const cohort of cohorts) {
      items.push({
        count: await this.membership.count(scope, cohort, resolve, signal),
        is_visible: cohort.isVisible ? 1 : 0,
        description: cohort.description,
        created: listTime(cohort.createdAt),
        project_id: cohort.projectId,
        id: cohort.id,
        name: cohort.name,
      });
    }
    return items;
  }
}
