import { LookupTablesReader } from '@analytics/lookup-tables';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { withLookups } from '../expressions/query-expressions';
import { NumericSeriesSpec, numericSeriesResults } from './numeric-sum';
import { SegmentationSpec } from './segmentation-spec';
import { SegmentationResult, segmentationResult, shownSeries } from './segmentation-tally';
import { SegmentationRepository } from './segmentation.repository';

export interface NumericSeriesResult {
  status: 'ok';
  computed_at: string;
  results: Record<string, number>;
}

@Injectable()
export class SegmentationService {
  constructor(
    private readonly repository: SegmentationRepository,
    private readonly lookupTables: LookupTablesReader,
  ) {}

  private async looked<T>(scope: ProjectScope, spec: T): Promise<T> {
    return withLookups(spec, (await this.lookupTables.lookups(scope)).events);
  }

  /** /segmentation, /events and /events/properties: one shape, series per event or per value. */
  async segmentation(scope: ProjectScope, spec: SegmentationSpec, signal?: AbortSignal): Promise<SegmentationResult> {
    const { cells, ranked } = await this.repository.cells(scope, await this.looked(scope, spec), signal);
    return segmentationResult(spec, cells, shownSeries(spec, ranked));
  }

  /** /segmentation/numeric: one series per round range of the numbers `on` takes. */
  async numericBuckets(scope: ProjectScope, spec: SegmentationSpec, signal?: AbortSignal): Promise<SegmentationResult> {
    const { cells, ranked } = await this.repository.numericBuckets(scope, await this.looked(scope, spec), signal);
    return segmentationResult(spec, cells, ranked);
  }

  async numericSeries(
    scope: ProjectScope,
    spec: NumericSeriesSpec,
    average: boolean,
    nowMs: number,
    signal?: AbortSignal,
  ): Promise<NumericSeriesResult> {
    const rows = await this.repository.numericSeries(scope, await this.looked(scope, spec), signal);
    return {
      status: 'ok',
      computed_at: new Date(nowMs).toISOString(),
      results: numericSeriesResults(spec, rows, average),
    };
  }
}
