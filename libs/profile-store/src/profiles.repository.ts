import { Database, Postgres } from '@analytics/postgres';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { StoredProfile } from './profile-rows';
import { ProfilesTransaction } from './profiles-transaction';

/** The Postgres profiles (the source of truth). */
@Injectable()
export class ProfilesRepository {
  constructor(private readonly postgres: Postgres) {}

  transaction<T>(work: (profiles: ProfilesTransaction) => Promise<T>): Promise<T> {
    return this.postgres.db.transaction((tx) => work(new ProfilesTransaction(tx as unknown as Database)));
  }

  /** One project's stored profiles of one kind (user profiles: group key ''), for reading outside a batch. */
  async find(scope: ProjectScope, groupKey: string, profileIds: string[]): Promise<StoredProfile[]> {
    return new ProfilesTransaction(this.postgres.db).read(
      scope,
      profileIds.map((profileId) => ({ groupKey, profileId })),
    );
  }
}
