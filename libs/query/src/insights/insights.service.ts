import { LookupTablesReader } from '@analytics/lookup-tables';
import { InsightsParams } from '@analytics/report-definitions';
import { SavedReportsService } from '@analytics/reports';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { Clock } from '@analytics/clock';
import { withLookups } from '../expressions/query-expressions';
import { TimeZone } from '../time/time-zone';
import { insightsSpec } from './insights-spec';
import { InsightsResult, insightsResult } from './insights-tally';
import { InsightsRepository } from './insights.repository';

@Injectable()
export class InsightsService {
  constructor(
    private readonly reports: SavedReportsService,
    private readonly repository: InsightsRepository,
    private readonly clock: Clock,
    private readonly lookupTables: LookupTablesReader,
  ) {}

  /** A saved insights report (bookmark), computed now. */
  async report(scope: ProjectScope, bookmarkId: number, signal?: AbortSignal): Promise<InsightsResult> {
    const bookmark = await this.reports.get(scope, 'bookmark', bookmarkId);
    return this.run(scope, bookmark.definition, signal);
  }

  /** A definition computed as it is, unsaved (checked by the caller as a save would check it). */
  async run(scope: ProjectScope, definition: InsightsParams, signal?: AbortSignal): Promise<InsightsResult> {
    const now = this.clock.now();
    const { events } = await this.lookupTables.lookups(scope);
    const spec = withLookups(insightsSpec(definition, now, TimeZone.of(scope.timeZone)), events);
    return insightsResult(spec, await this.repository.tally(scope, spec, signal), now);
  }
}
