import { Module } from '@nestjs/common';
import { ProfileCountsRepository } from './profile-counts.repository';
import { ProfileLookupRepository } from './profile-lookup.repository';
import { ProfilesMirrorRepository } from './profiles-mirror.repository';
import { ProfilesRepository } from './profiles.repository';

/**
 * The profiles' tables: the Postgres source of truth (the writer's transactions, lookups) and the
 * ClickHouse mirror (the writer's inserts, the profile query's pages). Readers that compose SQL need
 * no module: they build on `userProfilesSql`. Usage counts the profiles (`ProfileCountsRepository`).
 */
@Module({
  providers: [ProfilesRepository, ProfilesMirrorRepository, ProfileLookupRepository, ProfileCountsRepository],
  exports: [ProfilesRepository, ProfilesMirrorRepository, ProfileLookupRepository, ProfileCountsRepository],
})
export class ProfileStoreModule {}
