export { ProfileIngestService } from './profile-ingest.service';
export { GroupKeysModule, ProfileIntakeModule, ProfilesIngestModule, ProfilesWriterModule } from './profiles.module';
export { PROFILES_WRITER_GROUP } from './profiles.consumer';
