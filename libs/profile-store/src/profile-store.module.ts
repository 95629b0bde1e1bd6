import { Module } from '@nestjs/common';
import { ProfileLookupRepository } from './profile-lookup.repository';
import { ProfilesMirrorRepository } from './profiles-mirror.repository';
import { ProfilesRepository } from './profiles.repository';

/**
 * The profiles' tables: the Postgres source of truth (the writer's transactions, lookups) and the
 * ClickHouse mirror (the writer's inserts, the profile query's pages). Readers that compose SQL need
 * no module: they build on `userProfilesSql`.
 */
@Module({
  providers: [ProfilesRepository, ProfilesMirrorRepository, ProfileLookupRepository],
  exports: [ProfilesRepository, ProfilesMirrorRepository, ProfileLookupRepository],
})
export class ProfileStoreModule {}
