import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { QueryRunner } from '../clickhouse/query-runner';
import { FunnelSpec } from './funnel-spec';
import { FunnelRow, funnelSql } from './funnel-sql';
import { FunnelCell, FunnelTally } from './funnel-tally';

/** Per-step arrays come back as long as the deepest user of the row: pad them to the funnel's length. */
function padded<T>(values: readonly T[], length: number, fill: T): T[] {
  return Array.from({ length }, (_, i) => values[i] ?? fill);
}

function toCell(row: FunnelRow, steps: number): FunnelCell {
  return {
    bucket: Number(row.bucket),
    segment: row.segment,
    counts: padded(row.counts.map(Number), steps, 0),
    fromPreviousMs: padded(
      row.previous_ms.map((value) => BigInt(value)),
      steps,
      0n,
    ),
    fromStartMs: padded(
      row.start_ms.map((value) => BigInt(value)),
      steps,
      0n,
    ),
  };
}

@Injectable()
export class FunnelsRepository {
  constructor(private readonly runner: QueryRunner) {}

  async tally(scope: ProjectScope, spec: FunnelSpec, signal?: AbortSignal): Promise<FunnelTally> {
    const resolve = await this.runner.resolvesIdentities(scope, signal);
    const rows = await this.runner.rows<FunnelRow>(funnelSql(scope, spec, resolve, this.runner.identityLookup), signal);
    const cells = rows.map((row) => toCell(row, spec.steps.length));
    if (!spec.on) return { cells };
    const ranks = new Map(rows.map((row) => [row.segment, Number(row.rank)]));
    return { cells, segments: [...ranks.keys()].sort((a, b) => ranks.get(a)! - ranks.get(b)!) };
  }
}
