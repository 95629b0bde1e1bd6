export { ProfileIngestService } from './profile-ingest.service';
export { ProfilesError, ProfilesErrorCode } from './profiles-error';
export { CohortMembers, MirrorQuery } from './profiles-mirror-sql';
export { MirroredProperties, ProfilesMirrorRepository } from './profiles-mirror.repository';
export {
  GroupKeysModule,
  ProfileIntakeModule,
  ProfilesIngestModule,
  ProfileStoreModule,
  ProfilesWriterModule,
} from './profiles.module';
export { PROFILES_WRITER_GROUP } from './profiles.consumer';
