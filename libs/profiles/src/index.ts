export { ApplyOutcome, applyProfileUpdate, ProfileState } from './apply-profile-update';
export { FailedProfileRecord, ProfileIngestOutcome, ProfileIngestService } from './profile-ingest.service';
export { ProfileGeolocator } from './profile-geolocator';
export { decodeProfileUpdate, identityKey, ProfileIdentity, ProfileUpdate, Properties, PropertyValue, USER_PROFILES } from './profile-update';
export { ProfileUpdateSink, RefusedUpdate } from './profile-update.sink';
export { KafkaRef, PartitionUpdates, PendingUpdate, ProfileWriter, Rejection } from './profile-writer.service';
export { ProfilesError, ProfilesErrorCode } from './profiles-error';
export { CohortMembers, MirroredProperties, MirrorQuery, ProfilesMirrorRepository } from './profiles-mirror.repository';
export { isPlainObject } from './property-values';
export {
  GroupKeysModule,
  ProfileIntakeModule,
  ProfilesIngestModule,
  ProfileStoreModule,
  ProfilesWriterModule,
} from './profiles.module';
export { PROFILES_WRITER_GROUP, ProfilesConsumer } from './profiles.consumer';
export { MirrorProfile, ProfilesRepository, StoredProfile } from './profiles.repository';
export { isReservedProfileProperty, RESERVED_PROFILE_PROPERTIES, validateProfileRecord } from './validate-profile-record';
