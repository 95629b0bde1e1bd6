import { IdentityLink } from './identity-link';

/** At most this many ids in one cluster (Original ID Merge); a union past it is refused. */
export const MAX_CLUSTER_IDS = 500;

/** One id's row of the mapping: the canonical id of its cluster and what ranks it as a candidate. */
export interface IdentityMember {
  distinctId: string;
  personId: string;
  /** The earliest event time the id was identified in ($identified_id, alias); -1 when never. */
  identifiedMs: number;
  /** The earliest event time of a link the id took part in. */
  linkedMs: number;
}

export type LinkOutcome = { kind: 'applied' | 'unchanged' } | { kind: 'refused'; reason: string };

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

const sameMember = (x: IdentityMember, y: IdentityMember) => x.personId === y.personId && x.identifiedMs === y.identifiedMs && x.linkedMs === y.linkedMs;

/**
 * The identity rules of docs/identity.md over a set of mapping rows, in memory: the writer loads
 * the clusters a batch touches, applies its links in order and writes what changed; the query
 * references build the whole mapping from the links. Whatever order links come in, the result is
 * the same (a function of the set of accepted links); only which link the 500-id limit refuses
 * depends on it.
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

  /** Simplified: a device belongs to one user, the one of its earliest link (ties: the smaller user id). */
  private linkDevice({ a: device, b: user, timeMs }: IdentityLink): LinkOutcome {
    const current = this.members.get(device);
    if (current && (current.linkedMs < timeMs || (current.linkedMs === timeMs && current.personId <= user))) return { kind: 'unchanged' };
    this.remove(device);
    this.put({ distinctId: device, personId: user, identifiedMs: NEVER, linkedMs: timeMs });
    return { kind: 'applied' };
  }

  /** Original: joins the clusters of both ids, then re-ranks the canonical id. */
  private union(link: IdentityLink): LinkOutcome {
    const a = this.members.get(link.a);
    const b = this.members.get(link.b);
    const joined = a && b && a.personId === b.personId;
    if (!joined) {
      const size = (a ? this.clusters.get(a.personId)!.size : 1) + (b ? this.clusters.get(b.personId)!.size : 1);
      if (size > MAX_CLUSTER_IDS) return { kind: 'refused', reason: `identity cluster would hold ${size} ids; at most ${MAX_CLUSTER_IDS}` };
    }
    const before = [link.a, link.b].map((id) => this.members.get(id)).map((m) => m && { ...m });
    const ids = new Set([...this.clusterOf(link.a), ...this.clusterOf(link.b)]);
    const rows = [...ids].map((id) => this.members.get(id) ?? { distinctId: id, personId: id, identifiedMs: NEVER, linkedMs: link.timeMs });
    for (const row of rows) {
      if (row.distinctId !== link.a && row.distinctId !== link.b) continue;
      row.linkedMs = Math.min(row.linkedMs, link.timeMs);
      if (row.distinctId === link.identified && (row.identifiedMs === NEVER || link.timeMs < row.identifiedMs)) row.identifiedMs = link.timeMs;
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
