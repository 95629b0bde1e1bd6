import { ProfileIdentity, ProfileKey, ProfileState, Properties } from '@analytics/profile-updates';

/** A profile row with what the mirror needs besides its state. */
export interface StoredProfile extends ProfileIdentity, ProfileState {
  version: string;
  /** `created_at` as Postgres prints it, handed back unchanged when the row is written again. */
  createdAt: string;
  createdMs: number;
  updatedMs: number;
}

/** A row to write (its project is its group's scope): `createdAt` of the incarnation it continues, none for a new (or re-created) profile. */
export interface ProfileWrite extends ProfileKey, ProfileState {
  createdAt?: string;
}

/** What the mirror gets for a written or deleted profile. */
export interface WrittenProfile extends ProfileIdentity {
  version: string;
  createdMs: number;
  updatedMs: number;
}

/** A profile as the ClickHouse mirror stores it: no properties for a deleted one (a tombstone). */
export interface MirrorProfile extends WrittenProfile {
  properties: Properties | undefined;
}

export interface KafkaPartition {
  topic: string;
  partition: number;
}

/** A Kafka partition's key in profile_offsets' bookkeeping. */
export const partitionKey = ({ topic, partition }: KafkaPartition) => `${topic}:${partition}`;
