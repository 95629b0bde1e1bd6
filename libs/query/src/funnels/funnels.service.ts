import { LookupTablesReader } from '@analytics/lookup-tables';
import { FunnelDefinition } from '@analytics/report-definitions';
import { SavedReportsService } from '@analytics/reports';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { withLookups } from '../expressions/query-expressions';
import { FunnelQuery, funnelSpec } from './funnel-spec';
import { FunnelResult, funnelResult } from './funnel-tally';
import { FunnelsRepository } from './funnels.repository';

export interface FunnelListItem {
  funnel_id: number;
  name: string;
}

@Injectable()
export class FunnelsService {
  constructor(
    private readonly reports: SavedReportsService,
    private readonly repository: FunnelsRepository,
    private readonly lookupTables: LookupTablesReader,
  ) {}

  /** A saved funnel over the query's dates, with its overrides (window, where, on, buckets). */
  async query(scope: ProjectScope, query: FunnelQuery, signal?: AbortSignal): Promise<FunnelResult> {
    const saved = await this.reports.get(scope, 'funnel', query.funnelId);
    return this.run(scope, saved.definition, query, signal);
  }

  /** A definition computed as it is, unsaved (checked by the caller as a save would check it). */
  async run(
    scope: ProjectScope,
    definition: FunnelDefinition,
    query: Omit<FunnelQuery, 'funnelId'>,
    signal?: AbortSignal,
  ): Promise<FunnelResult> {
    const { events } = await this.lookupTables.lookups(scope);
    const spec = withLookups(funnelSpec(definition, query), events);
    return funnelResult(spec, await this.repository.tally(scope, spec, signal));
  }

  async list(scope: ProjectScope): Promise<FunnelListItem[]> {
    return (await this.reports.list(scope, 'funnel')).map((report) => ({ funnel_id: report.id, name: report.name }));
  }
}
