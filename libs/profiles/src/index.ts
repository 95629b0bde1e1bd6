export { ProfileIngestService } from './profile-ingest.service';
export { Properties, USER_PROFILES } from './profile-update';
export { ProfilesError, ProfilesErrorCode } from './profiles-error';
export { CohortMembers, MirrorQuery } from './profiles-mirror-sql';
export { MirroredProperties, ProfilesMirrorRepository } from './profiles-mirror.repository';
export { isPlainObject } from './property-values';
export {
  GroupKeysModule,
  ProfileIntakeModule,
  ProfilesIngestModule,
  ProfileStoreModule,
  ProfilesWriterModule,
} from './profiles.module';
export { PROFILES_WRITER_GROUP } from './profiles.consumer';
