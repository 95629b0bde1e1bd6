export { ProfileLookupRepository } from './profile-lookup.repository';
export { ProfileStoreModule } from './profile-store.module';
export { PROFILES_MIRROR_TABLE, PROFILES_TABLE } from './profiles-tables';
export { CohortMembers, MirrorQuery, userProfilesSql } from './profiles-mirror-sql';
export { MirroredProperties, ProfilesMirrorRepository } from './profiles-mirror.repository';
export { KafkaPartition, MirrorProfile, partitionKey, ProfileWrite, StoredProfile } from './profile-rows';
export { ProfilesRepository } from './profiles.repository';
export { ProfilesTransaction } from './profiles-transaction';
export { PROFILE_STORE_MIGRATIONS } from './migrations';
