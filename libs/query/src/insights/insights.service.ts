import { SavedReportsService } from '@analytics/reports';
import { Inject, Injectable } from '@nestjs/common';
import { QUERY_CLOCK, QueryClock } from '../clock';
import { insightsSpec } from './insights-spec';
import { InsightsResult, insightsResult } from './insights-tally';
import { InsightsRepository } from './insights.repository';

@Injectable()
export class InsightsService {
  constructor(
    private readonly reports: SavedReportsService,
    private readonly repository: InsightsRepository,
    @Inject(QUERY_CLOCK) private readonly clock: QueryClock,
  ) {}

  /** A saved insights report (bookmark), computed now. */
  async report(projectId: number, bookmarkId: number, signal?: AbortSignal): Promise<InsightsResult> {
    const bookmark = await this.reports.get(projectId, 'bookmark', bookmarkId);
    const now = this.clock();
    const spec = insightsSpec(bookmark.definition, now);
    return insightsResult(spec, await this.repository.tally(projectId, spec, signal), now);
  }
}
