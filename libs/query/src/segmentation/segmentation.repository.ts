import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { QueryRunner } from '../clickhouse/query-runner';
import { numericCells, numericRangeSql, NumericSlotRow, numericSlotsSql, roundWidth } from './numeric-buckets';
import { numericSeriesReadsProfiles, NumericSeriesRow, numericSeriesSql, NumericSeriesSpec } from './numeric-sum';
import { SegmentationRow, segmentationSql } from './segmentation-sql';
import { SegmentationSpec } from './segmentation-spec';
import { SegmentationCell } from './segmentation-tally';

@Injectable()
export class SegmentationRepository {
  constructor(private readonly runner: QueryRunner) {}

  async cells(
    scope: ProjectScope,
    spec: SegmentationSpec,
    signal?: AbortSignal,
  ): Promise<{ cells: SegmentationCell[]; ranked: string[] }> {
    const resolve = await this.runner.resolvesIdentities(scope, signal);
    const rows = await this.runner.rows<SegmentationRow>(segmentationSql(scope, spec, resolve), signal);
    const ranks = new Map(rows.map((row) => [row.series, Number(row.rank)]));
    return {
      cells: rows.map((row) => ({
        key: Number(row.key),
        series: row.series,
        events: Number(row.events),
        users: Number(row.users),
      })),
      ranked: [...ranks.keys()].sort((a, b) => ranks.get(a)! - ranks.get(b)!),
    };
  }

  async numericSeries(scope: ProjectScope, spec: NumericSeriesSpec, signal?: AbortSignal): Promise<NumericSeriesRow[]> {
    const resolve = numericSeriesReadsProfiles(spec) && (await this.runner.resolvesIdentities(scope, signal));
    return this.runner.rows<NumericSeriesRow>(numericSeriesSql(scope, spec, resolve), signal);
  }

  /** /segmentation/numeric: two passes, the range of the numbers, then the counts per round range. */
  async numericBuckets(
    scope: ProjectScope,
    spec: SegmentationSpec,
    signal?: AbortSignal,
  ): Promise<{ cells: SegmentationCell[]; ranked: string[] }> {
    const resolve = await this.runner.resolvesIdentities(scope, signal);
    const [range] = await this.runner.rows<{ low: number; high: number; n: number }>(
      numericRangeSql(scope, spec, resolve),
      signal,
    );
    if (!range || Number(range.n) === 0) return { cells: [], ranked: [] };
    const width = roundWidth(Number(range.low), Number(range.high));
    return numericCells(
      await this.runner.rows<NumericSlotRow>(numericSlotsSql(scope, spec, width, resolve), signal),
      width,
    );
  }
}
