import { EVENT_LIMITS, FORBIDDEN_IDS } from './event-limits';
import { TimePolicy } from './event-time';

/** The project setting `identity_merge` (docs/identity.md): which events link ids into one user. */
export const IDENTITY_MODES = ['simplified', 'original', 'disabled'] as const;
export type IdentityMode = (typeof IDENTITY_MODES)[number];

/**
 * The event an `original` link comes from; each has its own rule (docs/identity.md): `identify`
 * (`a` the `$anon_id`, `b` the `$identified_id`), `alias` (`a` the `distinct_id`, `b` the alias),
 * `merge` (`$merge`: any two ids).
 */
export const ORIGINAL_LINK_KINDS = ['identify', 'alias', 'merge'] as const;
export type OriginalLinkKind = (typeof ORIGINAL_LINK_KINDS)[number];

/**
 * Two ids of one person, as one event says. `simplified`: `a` is a device (`$device:<id>`), `b`
 * its user. `original`: `a` and `b` join one cluster if `kind`'s rule allows it (absent: `merge`,
 * as links made before the rules existed were applied); `identified` names the one the event
 * identified (`$identified_id`, `alias`), if any. `timeMs` is the event's time: the canonical id
 * and a device's owner rank by it, not by arrival.
 */
export interface IdentityLink {
  projectId: number;
  mode: 'simplified' | 'original';
  kind?: OriginalLinkKind;
  a: string;
  b: string;
  identified?: string;
  timeMs: number;
}

/** An id usable in a link: a non-empty string or number, not a placeholder the API refuses, within 255 characters. */
function idOf(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const id = String(value);
  if (id === '' || id.length > EVENT_LIMITS.maxStringLength || FORBIDDEN_IDS.has(id.trim().toLowerCase()))
    return undefined;
  return id;
}

export interface LinkSource {
  projectId: number;
  mode: IdentityMode;
  policy: TimePolicy;
  event: string;
  properties: Record<string, unknown>;
  /** The id the event is stored under. */
  distinctId: string;
  timeMs: number;
}

/**
 * The link an accepted event makes, if any. Simplified: `$user_id` with `$device_id`. Original:
 * `$identify` (`$identified_id` or the event's id, with `$anon_id` or the browser SDK's
 * `$anon_distinct_id`), `$create_alias` (`alias` with `distinct_id`), and `$merge` (`$distinct_ids`,
 * two ids; only through /import, as the real API accepts it). A malformed one links nothing; the
 * event is stored all the same.
 */
export function identityLinkOf(source: LinkSource): IdentityLink | undefined {
  const { mode, properties: p, projectId, timeMs } = source;
  const link = (
    kind: OriginalLinkKind | undefined,
    a: string | undefined,
    b: string | undefined,
    identified?: string,
  ): IdentityLink | undefined =>
    a !== undefined && b !== undefined && a !== b && mode !== 'disabled'
      ? {
          projectId,
          mode,
          ...(kind !== undefined && { kind }),
          a,
          b,
          ...(identified !== undefined && { identified }),
          timeMs,
        }
      : undefined;
  if (mode === 'simplified') {
    const device = idOf(p.$device_id);
    return link(undefined, device === undefined ? undefined : idOf(`$device:${device}`), idOf(p.$user_id));
  }
  if (mode !== 'original') return undefined;
  if (source.event === '$identify') {
    const identified = idOf(p.$identified_id) ?? idOf(source.distinctId);
    return link('identify', idOf(p.$anon_id) ?? idOf(p.$anon_distinct_id), identified, identified);
  }
  if (source.event === '$create_alias') {
    const alias = idOf(p.alias);
    return link('alias', idOf(p.distinct_id), alias, alias);
  }
  if (source.event === '$merge' && source.policy === 'import') {
    const ids = p.$distinct_ids;
    return Array.isArray(ids) && ids.length === 2 ? link('merge', idOf(ids[0]), idOf(ids[1])) : undefined;
  }
  return undefined;
}

/**
 * One link per pair of ids, at its earliest time: what every rule reads of repeated links (a
 * signed-in browser sends `$user_id` and `$device_id` on each event), so a request publishes each
 * link once instead of once per event.
 */
export function distinctLinks(links: readonly IdentityLink[]): IdentityLink[] {
  const earliest = new Map<string, IdentityLink>();
  for (const link of links) {
    const key = JSON.stringify([link.projectId, link.mode, link.kind ?? null, link.a, link.b, link.identified ?? null]);
    const seen = earliest.get(key);
    if (!seen || link.timeMs < seen.timeMs) earliest.set(key, link);
  }
  return [...earliest.values()];
}
