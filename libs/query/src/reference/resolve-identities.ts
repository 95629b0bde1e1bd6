import { IdentityClusters } from '@analytics/events';
import { QueryEvent } from './query-event';

/**
 * The events as every reader sees them (docs/identity.md): each one's `distinct_id` resolved to
 * the canonical id of its cluster, after deduplication (which keys on the id as sent). The
 * references then count users, funnels and retention over the resolved ids, as the SQL does
 * through its join with identity_map.
 */
export function resolveIdentities(events: readonly QueryEvent[], identities: IdentityClusters): QueryEvent[] {
  return events.map((event) => {
    const distinctId = identities.resolve(event.distinctId);
    return distinctId === event.distinctId ? event : { ...event, distinctId };
  });
}
