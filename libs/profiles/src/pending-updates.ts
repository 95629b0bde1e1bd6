import { KafkaPartition } from '@analytics/profile-store';
import { identityKey, ProfileIdentity, ProfileUpdate } from '@analytics/profile-updates';
import { projectScope, ScopedRows } from '@analytics/tenancy';

/** An update and whatever its caller needs to recognise it again (a request position, a Kafka offset). */
export interface PendingUpdate<R> {
  update: ProfileUpdate;
  ref: R;
}

/** An update that could not apply to the stored profile; the rest of its batch applied. */
export interface Rejection<R> {
  ref: R;
  message: string;
}

export interface KafkaRef extends KafkaPartition {
  offset: string;
}

/** One partition's share of a consumed batch. */
export interface PartitionUpdates extends KafkaPartition {
  updates: PendingUpdate<KafkaRef>[];
  /** The offset after the batch's last message: what the checkpoint moves to. */
  nextOffset: bigint;
}

export const identityOf = ({ projectId, groupKey, profileId }: ProfileIdentity): ProfileIdentity => ({
  projectId,
  groupKey,
  profileId,
});

export function uniqueIdentities(identities: ProfileIdentity[]): ProfileIdentity[] {
  return [...new Map(identities.map((identity) => [identityKey(identity), identityOf(identity)])).values()];
}

/**
 * A batch's items by project, each group with its project's scope. The writer applies updates the
 * gateway authenticated (each names its project by the token it checked), so it is where their
 * scopes are made.
 */
export function byProject<T extends { projectId: number }>(items: T[]): ScopedRows<T>[] {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const group = groups.get(item.projectId);
    if (group) group.push(item);
    else groups.set(item.projectId, [item]);
  }
  return [...groups].map(([projectId, rows]) => ({ scope: projectScope(projectId), rows }));
}
