import { keepsEvent } from '../expressions/query-expressions';
import { compareUtf8, eventsByUser, QueryEvent } from '../reference/query-event';
import { bucketOf } from '../time/buckets';
import { intervalIndex } from './retention-intervals';
import { RetentionSpec } from './retention-spec';
import { RetentionCohort } from './retention-tally';

/** The retention rules written plainly, for checking the SQL. */

/** Earliest first; at the same instant the smaller insert id, then event name, is the birth. */
function earlier(a: QueryEvent, b: QueryEvent): boolean {
  return a.timeMs !== b.timeMs
    ? a.timeMs < b.timeMs
    : (compareUtf8(a.insertId, b.insertId) || compareUtf8(a.event, b.event)) < 0;
}

const sameOccurrence = (a: QueryEvent, b: QueryEvent) =>
  a.event === b.event && a.timeMs === b.timeMs && a.insertId === b.insertId;

function births(spec: RetentionSpec, events: QueryEvent[]): QueryEvent[] {
  const { fromMs, toEndMs } = spec.zone.rangeMs(spec.fromDay, spec.toDay);
  if (spec.type === 'birth') {
    const born = events.filter(
      (e) => e.event === spec.bornEvent && e.timeMs < toEndMs && keepsEvent([spec.bornWhere], e),
    );
    const first = born.reduce<QueryEvent | undefined>((best, e) => (!best || earlier(e, best) ? e : best), undefined);
    return first && first.timeMs >= fromMs ? [first] : [];
  }
  // Compounded: one event is both the cohort's and the return, so `where` filters the births too.
  const firstPerBucket = new Map<number, QueryEvent>();
  for (const e of events) {
    if (
      (spec.event !== undefined && e.event !== spec.event) ||
      e.timeMs < fromMs ||
      e.timeMs >= toEndMs ||
      !keepsEvent([spec.bornWhere, spec.where], e)
    )
      continue;
    const bucket = bucketOf(spec.zone.dayOf(e.timeMs), spec.buckets, spec.fromDay);
    const held = firstPerBucket.get(bucket);
    if (!held || earlier(e, held)) firstPerBucket.set(bucket, e);
  }
  return [...firstPerBucket.values()];
}

function increment(map: Map<number, number>, key: number): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

export function referenceRetention(events: readonly QueryEvent[], spec: RetentionSpec): RetentionCohort[] {
  const cohorts = new Map<
    number,
    { cohort: number; first: number; returned: Map<number, number>; lastReturned: Map<number, number> }
  >();
  for (const userEvents of eventsByUser(events).values()) {
    const returns = userEvents.filter(
      (e) => (spec.event === undefined || e.event === spec.event) && keepsEvent([spec.where], e),
    );
    for (const birth of births(spec, userEvents)) {
      const key = bucketOf(spec.zone.dayOf(birth.timeMs), spec.buckets, spec.fromDay);
      let cohort = cohorts.get(key);
      if (!cohort) cohorts.set(key, (cohort = { cohort: key, first: 0, returned: new Map(), lastReturned: new Map() }));
      cohort.first += 1;
      const intervals = new Set(
        returns
          .filter((e) => e.timeMs >= birth.timeMs && !sameOccurrence(e, birth))
          .map((e) => intervalIndex(spec.zone.wallMs(birth.timeMs), spec.zone.wallMs(e.timeMs), spec.buckets))
          .filter((i) => i <= spec.intervalCount),
      );
      intervals.forEach((i) => increment(cohort.returned, i));
      if (intervals.size) increment(cohort.lastReturned, Math.max(...intervals));
    }
  }
  return [...cohorts.values()];
}
