import { IdentityLink } from './identity-link';
import { isAnonymousId, LinkOutcome, LinkRefusal, MAX_CLUSTER_IDS, refusal } from './identity-rules';

/** One id's row of the mapping: the canonical id of its cluster and what ranks it as a candidate. */
export interface IdentityMember {
  distinctId: string;
  personId: string;
  /** The earliest event time the id was identified in ($identified_id, alias); -1 when never. */
  identifiedMs: number;
  /** The earliest event time of a link the id took part in. */
  linkedMs: number;
}

const NEVER = -1;

/** Candidate order for the canonical id: identified ids first (earliest identification), then the earliest linked, then by id. */
function ranksBefore(x: IdentityMember, y: IdentityMember): boolean {
  const xi = x.identifiedMs !== NEVER;
  const yi = y.identifiedMs !== NEVER;
  if (xi !== yi) return xi;
  const xt = xi ? x.identifiedMs : x.linkedMs;
  const yt = yi ? y.identifiedMs : y.linkedMs;
  return xt !== yt ? xt < yt : x.distinctId < y.distinctId;
}

const sameMember = (x: IdentityMember, y: IdentityMember) =>
  x.personId === y.personId && x.identifiedMs === y.identifiedMs && x.linkedMs === y.linkedMs;

/**
 * The identity rules of docs/identity.md over a set of mapping rows, in memory: the writer loads
 * the clusters a batch touches, applies its links in order and writes what changed; the query
 * references build the whole mapping from the links. Each link is judged against the state it
 * meets, as Mixpanel does: which of two conflicting original links is refused (`$identify` of one
 * anonymous id to two people, the 500-id limit) depends on their order, not on how they are cut
 * into batches. The mapping made from a set of accepted links does not depend on their order (the
 * canonical id and a device's owner rank by event time).
 */
export class IdentityClusters {
  private readonly members = new Map<string, IdentityMember>();
  private readonly clusters = new Map<string, Set<string>>();
  private readonly loaded = new Map<string, IdentityMember>();

  constructor(rows: Iterable<IdentityMember> = []) {
    for (const row of rows) {
      this.put({ ...row });
      this.loaded.set(row.distinctId, { ...row });
    }
  }

  static of(links: Iterable<IdentityLink>): IdentityClusters {
    const clusters = new IdentityClusters();
    for (const link of links) clusters.apply(link);
    return clusters;
  }

  /** The canonical id of a distinct id: itself when it belongs to no cluster. */
  resolve(distinctId: string): string {
    return this.members.get(distinctId)?.personId ?? distinctId;
  }

  /** Every id of the cluster of `distinctId` (the id alone when unmerged). */
  clusterOf(distinctId: string): string[] {
    const personId = this.resolve(distinctId);
    // A simplified user has no row of its own: its cluster is it and its devices.
    return [...new Set([distinctId, personId, ...(this.clusters.get(personId) ?? [])])].sort();
  }

  /** Rows that differ from those loaded: what the writer must write. */
  changed(): IdentityMember[] {
    return [...this.members.values()].filter((m) => {
      const before = this.loaded.get(m.distinctId);
      return !before || !sameMember(before, m);
    });
  }

  rows(): IdentityMember[] {
    return [...this.members.values()];
  }

  apply(link: IdentityLink): LinkOutcome {
    return link.mode === 'simplified' ? this.linkDevice(link) : this.union(link);
  }

  /**
   * Simplified: a device belongs to one user, the one of its earliest link (ties: the smaller user
   * id); a user id is never merged with another (it has no row: one hop from a device to its user).
   */
  private linkDevice({ a: device, b: user, timeMs }: IdentityLink): LinkOutcome {
    const current = this.members.get(device);
    const keeps = current && (current.linkedMs < timeMs || (current.linkedMs === timeMs && current.personId <= user));
    if (current && keeps)
      return current.personId === user ? { kind: 'unchanged' } : refusal.deviceOwned(device, current.personId, user);
    this.remove(device);
    this.put({ distinctId: device, personId: user, identifiedMs: NEVER, linkedMs: timeMs });
    const displaced =
      current && current.personId !== user ? refusal.deviceOwned(device, user, current.personId) : undefined;
    return { kind: 'applied', ...(displaced && { displaced }) };
  }

  /**
   * Original, Mixpanel's rules by the link's event (absent: `$merge`): `$identify` merges only an
   * `$anon_id` that is a UUID v4 and not yet merged with an identified id; `$create_alias` only an
   * alias not yet merged with another id; `$merge` any two ids. Ids already in one cluster pass
   * (a repeated link changes nothing), and no cluster grows past MAX_CLUSTER_IDS.
   */
  private refusalOf(link: IdentityLink, joined: boolean): LinkRefusal | undefined {
    if (link.kind === 'identify' && !isAnonymousId(link.a)) return refusal.anonNotUuid(link.a);
    if (joined) return undefined;
    if (link.kind === 'identify') {
      const identified = this.clusterOf(link.a).find((id) => this.identifiedMsOf(id) !== NEVER);
      if (identified !== undefined) return refusal.anonIdentified(link.a, identified);
    }
    if (link.kind === 'alias' && this.clusterOf(link.b).length > 1) return refusal.aliasMerged(link.b);
    const size = this.clusterOf(link.a).length + this.clusterOf(link.b).length;
    return size > MAX_CLUSTER_IDS ? refusal.clusterLimit(size) : undefined;
  }

  private identifiedMsOf(distinctId: string): number {
    return this.members.get(distinctId)?.identifiedMs ?? NEVER;
  }

  /** Original: joins the clusters of both ids if the rules allow it, then re-ranks the canonical id. */
  private union(link: IdentityLink): LinkOutcome {
    const a = this.members.get(link.a);
    const b = this.members.get(link.b);
    const joined = !!a && !!b && a.personId === b.personId;
    const refused = this.refusalOf(link, joined);
    if (refused) return refused;
    const before = [link.a, link.b].map((id) => this.members.get(id)).map((m) => m && { ...m });
    const ids = new Set([...this.clusterOf(link.a), ...this.clusterOf(link.b)]);
    const rows = [...ids].map(
      (id) => this.members.get(id) ?? { distinctId: id, personId: id, identifiedMs: NEVER, linkedMs: link.timeMs },
    );
    for (const row of rows) {
      if (row.distinctId !== link.a && row.distinctId !== link.b) continue;
      row.linkedMs = Math.min(row.linkedMs, link.timeMs);
      if (row.distinctId === link.identified && (row.identifiedMs === NEVER || link.timeMs < row.identifiedMs))
        row.identifiedMs = link.timeMs;
    }
    const canonical = rows.reduce((best, row) => (ranksBefore(row, best) ? row : best)).distinctId;
    for (const id of ids) this.remove(id);
    for (const row of rows) this.put({ ...row, personId: canonical });
    const after = [link.a, link.b].map((id) => this.members.get(id)!);
    return joined && before.every((m, i) => m && sameMember(m, after[i])) ? { kind: 'unchanged' } : { kind: 'applied' };
  }

  private put(member: IdentityMember): void {
    this.members.set(member.distinctId, member);
    const cluster = this.clusters.get(member.personId) ?? new Set<string>();
    cluster.add(member.distinctId);
    this.clusters.set(member.personId, cluster);
  }

  private remove(distinctId: string): void {
    const member = this.members.get(distinctId);
    if (!member) return;
    this.members.delete(distinctId);
    const cluster = this.clusters.get(member.personId);
    cluster?.delete(distinctId);
    if (cluster && !cluster.size) this.clusters.delete(member.personId);
  }
}
