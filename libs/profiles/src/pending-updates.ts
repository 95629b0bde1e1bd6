import { KafkaPartition } from '@analytics/profile-store';
import { identityKey, ProfileIdentity, ProfileUpdate } from '@analytics/profile-updates';

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
