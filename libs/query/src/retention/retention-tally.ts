import { bucketKeys } from '../time/buckets';
import { formatDay } from '../time/utc-days';
import { RetentionSpec } from './retention-spec';

/**
 * One cohort as the SQL and the reference both count it: its users, and by interval index how many
 * returned in that interval and how many returned last (latest reported interval) in it.
 */
export interface RetentionCohort {
  cohort: number;
  first: number;
  returned: ReadonlyMap<number, number>;
  lastReturned: ReadonlyMap<number, number>;
}

export type RetentionResult = Record<string, { counts: number[]; first: number }>;

/** `unbounded_retention`: counts[i] = users returning in any reported interval from i on. */
function counts(spec: RetentionSpec, cohort: RetentionCohort | undefined): number[] {
  const indexes = Array.from({ length: spec.intervalCount + 1 }, (_, i) => i);
  if (!cohort) return indexes.map(() => 0);
  if (!spec.unbounded) return indexes.map((i) => cohort.returned.get(i) ?? 0);
  let later = 0;
  return indexes
    .reverse()
    .map((i) => (later += cohort.lastReturned.get(i) ?? 0))
    .reverse();
}

/** Keyed by cohort date, every bucket of the range listed. */
export function retentionResult(spec: RetentionSpec, cohorts: readonly RetentionCohort[]): RetentionResult {
  const byKey = new Map(cohorts.map((cohort) => [cohort.cohort, cohort]));
  const result: RetentionResult = {};
  for (const bucket of bucketKeys(spec.fromDay, spec.toDay, spec.buckets)) {
    const cohort = byKey.get(bucket);
    result[formatDay(bucket)] = { counts: counts(spec, cohort), first: cohort?.first ?? 0 };
  }
  return result;
}
