import { IdentityMergeHook, MergedId } from '@analytics/identity';
import { ProfilesMirrorRepository, ProfilesRepository, StoredProfile } from '@analytics/profile-store';
import { foldProfileStates, ProfileIdentity, USER_PROFILES } from '@analytics/profile-updates';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';

/** The id each merged id's profile folds into: its canonical id, followed further when that one is merged too (modes mixed in a project). */
function targetsOf(ids: MergedId[]): Map<string, string> {
  const personOf = new Map(ids.map(({ distinctId, personId }) => [distinctId, personId]));
  const follow = (id: string) => {
    for (let hops = 0; personOf.has(id) && hops < personOf.size; hops++) id = personOf.get(id)!;
    return id;
  };
  return new Map(ids.map(({ distinctId }) => [distinctId, follow(distinctId)]));
}

/**
 * Folds the user profiles stored under ids that joined a cluster into the canonical id's profile
 * (docs/identity.md, "Profiles"), for the identity writer after each batch. Idempotent: a folded
 * profile is gone, so the same ids again find nothing. The mirror is written inside the Postgres
 * transaction, before its commit: a commit that fails leaves the folded profile in Postgres, so
 * the batch applied again (Kafka redelivery, or the client's retry without a broker) folds it
 * again with newer versions, and a fold that committed is already in the mirror.
 */
@Injectable()
export class ProfileFolder extends IdentityMergeHook {
  constructor(
    private readonly profiles: ProfilesRepository,
    private readonly mirror: ProfilesMirrorRepository,
  ) {
    super();
  }

  async merged(scope: ProjectScope, ids: MergedId[]): Promise<void> {
    const user = (profileId: string): ProfileIdentity => ({
      projectId: scope.projectId,
      groupKey: USER_PROFILES,
      profileId,
    });
    const targets = targetsOf(ids);
    await this.profiles.transaction(async (tx) => {
      await tx.lockProjects([scope], 'exclusive');
      const wanted = [...new Set([...targets.keys(), ...targets.values()])].map(user);
      const stored = new Map(
        (await tx.lockProfiles([{ scope, rows: wanted }])).map((profile) => [profile.profileId, profile]),
      );
      const into = new Map<string, StoredProfile[]>();
      for (const [distinctId, target] of targets) {
        const profile = stored.get(distinctId);
        if (profile) into.set(target, [...(into.get(target) ?? []), profile]);
      }
      if (!into.size) return;
      const writes = [...into].map(([target, folded]) => {
        folded.sort((x, y) => x.createdMs - y.createdMs || (x.profileId < y.profileId ? -1 : 1));
        const canonical = stored.get(target);
        // A person without a profile gets the oldest folded one's creation time: it existed since then.
        return {
          ...user(target),
          ...foldProfileStates(canonical, folded),
          createdAt: (canonical ?? folded[0]).createdAt,
        };
      });
      await this.mirror.insert(
        await tx.replace(
          [{ scope, rows: writes }],
          [{ scope, rows: [...into.values()].flat().map((profile) => user(profile.profileId)) }],
        ),
      );
    });
  }
}
