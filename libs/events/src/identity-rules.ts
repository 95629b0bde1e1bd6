/** At most this many ids in one cluster (Original ID Merge); a union past it is refused. */
export const MAX_CLUSTER_IDS = 500;

/**
 * Why the rules refused a link (docs/identity.md, "Rules"): the metric's `reason` label.
 * - `cluster_limit`: the union would pass MAX_CLUSTER_IDS ids.
 * - `anon_not_uuid`: a `$identify` whose `$anon_id` is not a UUID v4.
 * - `anon_identified`: a `$identify` whose `$anon_id` is already merged with an identified id.
 * - `alias_merged`: a `$create_alias` whose alias already belongs to another cluster.
 * - `device_owned`: a simplified device already belongs to another user (by an earlier event).
 */
export const LINK_REFUSALS = [
  'cluster_limit',
  'anon_not_uuid',
  'anon_identified',
  'alias_merged',
  'device_owned',
] as const;
export type LinkRefusalRule = (typeof LINK_REFUSALS)[number];

export interface LinkRefusal {
  kind: 'refused';
  rule: LinkRefusalRule;
  reason: string;
}

/**
 * `applied` may carry `displaced`: a simplified device taken from the user of a later event (an
 * earlier link arrived late), that user's link now refused in effect, counted like a refusal.
 */
export type LinkOutcome = { kind: 'applied'; displaced?: LinkRefusal } | { kind: 'unchanged' } | LinkRefusal;

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const DEVICE_PREFIX = '$device:';

/**
 * An id `$identify` may merge as anonymous: a UUID v4 (what Mixpanel's and Segment's SDKs generate),
 * also behind `$device:`, the form the browser SDK sends it in as `$anon_distinct_id`.
 */
export function isAnonymousId(id: string): boolean {
  return UUID_V4.test(id.startsWith(DEVICE_PREFIX) ? id.slice(DEVICE_PREFIX.length) : id);
}

const quoted = (id: string) => JSON.stringify(id);

/** The refusals' messages, in one place: what the debug log and the dead-letter reason say. */
export const refusal = {
  clusterLimit: (size: number): LinkRefusal => ({
    kind: 'refused',
    rule: 'cluster_limit',
    reason: `identity cluster would hold ${size} ids; at most ${MAX_CLUSTER_IDS}`,
  }),
  anonNotUuid: (anon: string): LinkRefusal => ({
    kind: 'refused',
    rule: 'anon_not_uuid',
    reason: `$identify: $anon_id ${quoted(anon)} is not a UUID v4`,
  }),
  anonIdentified: (anon: string, identified: string): LinkRefusal => ({
    kind: 'refused',
    rule: 'anon_identified',
    reason: `$identify: $anon_id ${quoted(anon)} is already merged with the identified id ${quoted(identified)}`,
  }),
  aliasMerged: (alias: string): LinkRefusal => ({
    kind: 'refused',
    rule: 'alias_merged',
    reason: `$create_alias: alias ${quoted(alias)} is already merged with another id`,
  }),
  deviceOwned: (device: string, owner: string, user: string): LinkRefusal => ({
    kind: 'refused',
    rule: 'device_owned',
    reason: `device ${quoted(device)} belongs to user ${quoted(owner)} by an earlier event; not linked to ${quoted(user)}`,
  }),
};
