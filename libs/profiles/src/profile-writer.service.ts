import { Clock } from '@analytics/clock';
import { AppConfig } from '@analytics/config';
import { IdentityRepository } from '@analytics/identity';
import {
  MirrorProfile,
  partitionKey,
  ProfilesMirrorRepository,
  ProfilesRepository,
  ProfilesTransaction,
  ProfileWrite,
  StoredProfile,
} from '@analytics/profile-store';
import {
  applyToDraft,
  identityKey,
  ProfileDraft,
  ProfileIdentity,
  ProfileLimits,
  USER_PROFILES,
} from '@analytics/profile-updates';
import { Injectable } from '@nestjs/common';
import { identityOf, KafkaRef, PartitionUpdates, PendingUpdate, Rejection, uniqueIdentities } from './pending-updates';
import { byProject } from './by-project';
import { ProfileMetrics } from './profile-metrics';
import { TimeSlices } from './time-slices';

/** What a batch did to one profile: its draft, and whether the stored row lives on (not deleted and re-created). */
interface Change {
  identity: ProfileIdentity;
  draft: ProfileDraft;
  continues: boolean;
  /** At least one update applied: the profile is written. */
  applied: boolean;
}

/**
 * Applies batches of updates: in order, in one Postgres transaction (the truth), then publishes the
 * whole resulting profiles to the ClickHouse mirror. Postgres is written first, so a mirror that
 * missed a snapshot is repaired when the batch is delivered again (see `applyFromKafka`).
 */
@Injectable()
export class ProfileWriter {
  constructor(
    private readonly profiles: ProfilesRepository,
    private readonly mirror: ProfilesMirrorRepository,
    private readonly metrics: ProfileMetrics,
    /** Identity merge (docs/identity.md): a user profile update lands on its person's canonical id. */
    private readonly identities: IdentityRepository,
    config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.limits = config.profiles;
  }

  private readonly limits: ProfileLimits;

  /**
   * Each user profile update re-addressed to the canonical id of its cluster, so `/engage` on any id
   * of a person changes the person's one profile; `$delete` with `$ignore_alias` keeps to the id named.
   * Resolved inside the batch's transaction under its projects' shared fold locks (see
   * `ProfilesTransaction.lockProjects`), so a merge's profile fold never misses what this batch stores.
   */
  private async resolved<R>(tx: ProfilesTransaction, pending: PendingUpdate<R>[]): Promise<PendingUpdate<R>[]> {
    const follows = ({ update }: PendingUpdate<R>) =>
      update.groupKey === USER_PROFILES && !(update.op === '$delete' && update.ignoreAlias);
    const projects = byProject(pending.filter(follows).map((item) => item.update));
    await tx.lockProjects(
      projects.map(({ scope }) => scope),
      'shared',
    );
    // One lookup per project, all at once: the shared locks are held while they run.
    const canonical = new Map(
      await Promise.all(
        projects.map(
          async ({ scope, rows }) =>
            [
              scope.projectId,
              await this.identities.resolve(scope, [...new Set(rows.map((u) => u.profileId))]),
            ] as const,
        ),
      ),
    );
    return pending.map((item) => {
      const profileId = follows(item) ? canonical.get(item.update.projectId)?.get(item.update.profileId) : undefined;
      return profileId ? { ...item, update: { ...item.update, profileId } } : item;
    });
  }

  /** Without a broker: the gateway's batch, stored and mirrored before it answers. */
  async apply<R>(updates: PendingUpdate<R>[]): Promise<Rejection<R>[]> {
    const stop = this.metrics.applySeconds.startTimer();
    const { rejected, mirrored } = await this.profiles.transaction(async (tx) =>
      this.fold(tx, await this.resolved(tx, updates), []),
    );
    stop();
    await this.mirror.insert(mirrored);
    return rejected;
  }

  /** From Kafka, mirrored before returning (the consumer splits the two steps; see `store`). */
  async applyFromKafka(batches: PartitionUpdates[]): Promise<Rejection<KafkaRef>[]> {
    const { rejected, mirrored } = await this.store(batches);
    await this.mirror.insert(mirrored);
    return rejected;
  }

  /**
   * The Postgres step of a batch from Kafka. Each partition's checkpoint (the next offset to apply)
   * moves in the same transaction as the profiles, so updates an earlier delivery applied are
   * skipped, never applied twice (an `$add` or `$append` counts once). Their profiles are returned
   * for the mirror again, in case the earlier delivery stopped between Postgres and ClickHouse.
   */
  async store(batches: PartitionUpdates[]): Promise<{ rejected: Rejection<KafkaRef>[]; mirrored: MirrorProfile[] }> {
    const stop = this.metrics.applySeconds.startTimer();
    const result = await this.profiles.transaction(async (tx) => {
      const resolved = await this.resolved(
        tx,
        batches.flatMap((batch) => batch.updates),
      );
      let at = 0;
      batches = batches.map((batch) => ({ ...batch, updates: resolved.slice(at, (at += batch.updates.length)) }));
      const checkpoints = await tx.lockCheckpoints(batches);
      const fresh: PendingUpdate<KafkaRef>[] = [];
      const replayed: ProfileIdentity[] = [];
      for (const batch of batches) {
        const next = checkpoints.get(partitionKey(batch)) ?? 0n;
        for (const pending of batch.updates) {
          if (BigInt(pending.ref.offset) >= next) fresh.push(pending);
          else replayed.push(pending.update);
        }
      }
      const folded = await this.fold(tx, fresh, replayed);
      await tx.advanceCheckpoints(
        batches.map(({ topic, partition, nextOffset }) => ({ topic, partition, nextOffset })),
      );
      return folded;
    });
    stop();
    return result;
  }

  /** Whole profiles into the ClickHouse mirror. */
  publish(profiles: MirrorProfile[]): Promise<void> {
    return this.mirror.insert(profiles);
  }

  private async fold<R>(
    tx: ProfilesTransaction,
    updates: PendingUpdate<R>[],
    republish: ProfileIdentity[],
  ): Promise<{ rejected: Rejection<R>[]; mirrored: MirrorProfile[] }> {
    const stored = new Map<string, StoredProfile>();
    for (const profile of await tx.lockProfiles(
      byProject(uniqueIdentities([...updates.map((u) => u.update), ...republish])),
    )) {
      stored.set(identityKey(profile), profile);
    }
    const changes = new Map<string, Change>();
    const rejected: Rejection<R>[] = [];
    const slices = new TimeSlices();
    for (const { update, ref } of updates) {
      await slices.pause();
      const key = identityKey(update);
      let change = changes.get(key);
      if (!change)
        changes.set(
          key,
          (change = {
            identity: identityOf(update),
            draft: new ProfileDraft(stored.get(key), this.limits),
            continues: stored.has(key),
            applied: false,
          }),
        );
      const refusal = applyToDraft(change.draft, update);
      if (refusal) {
        rejected.push({ ref, message: refusal.message });
        if (refusal.limit) this.metrics.overLimit.inc({ limit: refusal.limit });
        continue;
      }
      change.applied = true;
      if (!change.draft.exists) change.continues = false;
    }
    this.metrics.applied.inc(updates.length - rejected.length);
    this.metrics.inapplicable.inc(rejected.length);
    const written = await this.write(
      tx,
      [...changes.values()].filter((c) => c.applied),
      stored,
    );
    const again = await this.republished(
      tx,
      republish.filter((identity) => !changes.get(identityKey(identity))?.applied),
      stored,
    );
    return { rejected, mirrored: [...written, ...again] };
  }

  /** Saves the profiles that exist after the batch, deletes the stored ones that do not. */
  private async write(
    tx: ProfilesTransaction,
    changes: Change[],
    stored: Map<string, StoredProfile>,
  ): Promise<MirrorProfile[]> {
    const saved = byProject(
      changes.flatMap(({ identity, draft, continues }): (ProfileWrite & ProfileIdentity)[] => {
        const state = draft.state();
        return state
          ? [{ ...identity, ...state, createdAt: continues ? stored.get(identityKey(identity))!.createdAt : undefined }]
          : [];
      }),
    );
    const gone = byProject(
      changes.filter((c) => !c.draft.exists && stored.has(identityKey(c.identity))).map((c) => c.identity),
    );
    return tx.replace(saved, gone);
  }

  /** The stored state of profiles whose updates were applied before; a tombstone for those no longer stored. */
  private async republished(
    tx: ProfilesTransaction,
    identities: ProfileIdentity[],
    stored: Map<string, StoredProfile>,
  ): Promise<MirrorProfile[]> {
    const unique = uniqueIdentities(identities);
    const gone = unique.filter((identity) => !stored.has(identityKey(identity)));
    const versions = await tx.tombstoneVersions(gone.length);
    const now = this.clock.now();
    return [
      ...unique
        .filter((identity) => stored.has(identityKey(identity)))
        .map((identity) => stored.get(identityKey(identity))!),
      ...gone.map((identity, i) => ({
        ...identity,
        properties: undefined,
        version: versions[i],
        createdMs: now,
        updatedMs: now,
      })),
    ];
  }
}
