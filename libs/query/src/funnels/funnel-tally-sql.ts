import { chCompiled, chSql, ChSql } from '@analytics/tenancy';
import { FunnelSpec } from './funnel-spec';
import { OTHER, UNDEFINED_SEGMENT } from './funnel-tally';

/**
 * Users per bucket (and segment) with their summed step times, one plain aggregate per step (a
 * step counts the users whose depth passes it; times past the depth are not summed).
 */
export function tallySql(spec: FunnelSpec, users: ChSql): ChSql {
  const n = spec.steps.length;
  const segment = spec.on ? `ifNull(best.2, '${UNDEFINED_SEGMENT}')` : "''";
  const reached = (m: number) => `depth > ${m}`;
  const later = Array.from({ length: n - 1 }, (_, i) => i + 1); // the steps after the first
  const columns = `SELECT bucket, segment,
      [count(), ${later.map((m) => `countIf(${reached(m)})`).join(', ')}] AS counts,
      [toInt64(0), ${later.map((m) => `sumIf(chain.${m + 1} - chain.${m}, ${reached(m)})`).join(', ')}] AS previous,
      [toInt64(0), ${later.map((m) => `sumIf(chain.${m + 1} - chain.1, ${reached(m)})`).join(', ')}] AS start
    FROM (
      SELECT best.1 AS bucket, ${segment} AS segment, best.3 AS depth, best.4 AS chain`;
  return chSql`${chCompiled(columns)}
      FROM (${users}) ARRAY JOIN bests AS best
    )
    GROUP BY bucket, segment`;
}

/** Segments ranked by entries over all buckets (ties by value); those past `limit` fold into `$other`. */
export function rankedSql(tally: ChSql): ChSql {
  return chSql`SELECT bucket, if(rank <= {limit:UInt32}, segment, ${chCompiled(`'${OTHER}'`)}) AS label, min(rank) AS labelRank,
      sumForEach(counts) AS labelCounts, sumForEach(previous) AS labelPrevious, sumForEach(start) AS labelStart
    FROM (
      SELECT *, dense_rank() OVER (ORDER BY total DESC, segment ASC) AS rank
      FROM (SELECT *, sum(counts[1]) OVER (PARTITION BY segment) AS total FROM (${tally}))
    )
    GROUP BY bucket, label`;
}
