import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
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
  constructor(private readonly repository: SegmentationRepository) {}

  /** /segmentation, /events and /events/properties: one shape, series per event or per value. */
  async segmentation(scope: ProjectScope, spec: SegmentationSpec, signal?: AbortSignal): Promise<SegmentationResult> {
    const { cells, ranked } = await this.repository.cells(scope, spec, signal);
    return segmentationResult(spec, cells, shownSeries(spec, ranked));
  }

  /** /segmentation/numeric: one series per round range of the numbers `on` takes. */
  async numericBuckets(scope: ProjectScope, spec: SegmentationSpec, signal?: AbortSignal): Promise<SegmentationResult> {
    const { cells, ranked } = await this.repository.numericBuckets(scope, spec, signal);
    return segmentationResult(spec, cells, ranked);
  }

  async numericSeries(
    scope: ProjectScope,
    spec: NumericSeriesSpec,
    average: boolean,
    nowMs: number,
    signal?: AbortSignal,
  ): Promise<NumericSeriesResult> {
    const rows = await this.repository.numericSeries(scope, spec, signal);
    return {
      status: 'ok',
      computed_at: new Date(nowMs).toISOString(),
      results: numericSeriesResults(spec, rows, average),
    };
  }
}
