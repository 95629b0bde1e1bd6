export { ApplyOutcome, applyProfileUpdate, ProfileState } from './apply-profile-update';
export { FailedProfileRecord, ProfileIngestOutcome, ProfileIngestService } from './profile-ingest.service';
export { ProfileGeolocator } from './profile-geolocator';
export { MAX_PAGE_SIZE, parseProfileQuery, ProfileQueryRequest } from './profile-query-request';
export { ProfileQueryResult, ProfileQueryService } from './profile-query.service';
export { decodeProfileUpdate, identityKey, ProfileIdentity, ProfileUpdate, Properties, PropertyValue, USER_PROFILES } from './profile-update';
export { ProfileUpdateSink, RefusedUpdate } from './profile-update.sink';
export { KafkaRef, PartitionUpdates, PendingUpdate, ProfileWriter, Rejection } from './profile-writer.service';
export { ProfilesError, ProfilesErrorCode } from './profiles-error';
export { ProfilesMirrorRepository } from './profiles-mirror.repository';
export {
  GroupKeysModule,
  ProfileIntakeModule,
  ProfilesIngestModule,
  ProfilesModule,
  ProfilesQueryModule,
  ProfileStoreModule,
  ProfilesWriterModule,
} from './profiles.module';
export { PROFILES_WRITER_GROUP, ProfilesConsumer } from './profiles.consumer';
export { MirrorProfile, ProfilesRepository, StoredProfile } from './profiles.repository';
export { isReservedProfileProperty, RESERVED_PROFILE_PROPERTIES, validateProfileRecord } from './validate-profile-record';
