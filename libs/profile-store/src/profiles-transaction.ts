import { parseJson } from '@analytics/events';
import { Database, selectRows } from '@analytics/postgres';
import { identityKey, ProfileKey, Properties } from '@analytics/profile-updates';
import { pgScopes, ProjectScope, ScopedRows } from '@analytics/tenancy';
import { SQL, sql } from 'drizzle-orm';
import { PROFILE_OFFSETS_TABLE, PROFILES_TABLE } from './profiles-tables';
import {
  KafkaPartition,
  MirrorProfile,
  partitionKey,
  ProfileWrite,
  StoredProfile,
  WrittenProfile,
} from './profile-rows';
import { statementsOf } from './save-statements';

const PROFILES = sql.identifier(PROFILES_TABLE);
const OFFSETS = sql.identifier(PROFILE_OFFSETS_TABLE);

interface ProfileRow {
  project_id: number;
  group_key: string;
  profile_id: string;
  properties: string;
  property_times: string;
  version: string;
  created_at: string;
  created_ms: number;
  updated_ms: number;
}

interface WrittenRow {
  project_id: number;
  group_key: string;
  profile_id: string;
  version: string;
  created_ms: number;
  updated_ms: number;
}

/** Profile keys as one bound JSON parameter, expanded by `jsonb_to_recordset` (no statement grows with the batch), each with its group's project. */
const profileKeys = (groups: ScopedRows<ProfileKey>[]) =>
  JSON.stringify(
    groups.flatMap(({ scope, rows }) =>
      rows.map(({ groupKey, profileId }) => ({
        project_id: scope.projectId,
        group_key: groupKey,
        profile_id: profileId,
      })),
    ),
  );

const scopesOf = (groups: ScopedRows<unknown>[]) => groups.map(({ scope }) => scope);
const isEmpty = (groups: ScopedRows<unknown>[]) => groups.every(({ rows }) => rows.length === 0);

const toWritten = (row: WrittenRow): WrittenProfile => ({
  projectId: Number(row.project_id),
  groupKey: row.group_key,
  profileId: row.profile_id,
  version: String(row.version),
  createdMs: Math.floor(Number(row.created_ms)),
  updatedMs: Math.floor(Number(row.updated_ms)),
});

/** Arbitrary constant naming the per-project advisory locks between profile folding and update batches. */
const FOLD_LOCK_CLASS = 5_005_002;

/** Whole milliseconds since the epoch, as a number on both drivers. */
const epochMs = (column: string) => sql.raw(`(extract(epoch from ${column}) * 1000)::float8`);

/**
 * The profile rows, through one transaction (or, for plain reads, the pool). Every statement acts on
 * the projects of its groups, named by their scopes (one statement for a batch of many projects), and
 * names each row by its group key and profile id. Values travel as bound parameters. Properties are
 * read as text and parsed with `parseJson`, so integers beyond 2^53 come back exactly as stored.
 */
export class ProfilesTransaction {
  constructor(private readonly db: Database) {}

  /**
   * Per-project advisory locks until commit: folding after a merge takes its project's lock
   * exclusively, a batch of updates shares those of its projects before it resolves ids. So an
   * update resolved before a merge is stored before the fold reads the profiles, and one resolved
   * after it sees the merge (docs/identity.md, "Profiles").
   */
  async lockProjects(projects: ProjectScope[], mode: 'shared' | 'exclusive'): Promise<void> {
    const ids = [...new Set(projects.map((scope) => scope.projectId))].sort((a, b) => a - b);
    if (!ids.length) return;
    const lock = sql.raw(mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock');
    await this.db.execute(
      sql`select ${lock}(${FOLD_LOCK_CLASS}::int, p) from (select p from unnest(${`{${ids.join(',')}}`}::int[]) as p order by p) as ordered`,
    );
  }

  /**
   * The stored profiles among the groups' keys, locked until commit, in (project, key) order, so
   * concurrent batches cannot deadlock.
   */
  lockProfiles(groups: ScopedRows<ProfileKey>[]): Promise<StoredProfile[]> {
    return this.select(groups, sql`for update of p`);
  }

  /** The project's stored profiles among `keys`, without locking them. */
  read(scope: ProjectScope, keys: ProfileKey[]): Promise<StoredProfile[]> {
    return this.select([{ scope, rows: keys }], sql``);
  }

  private async select(groups: ScopedRows<ProfileKey>[], lock: SQL): Promise<StoredProfile[]> {
    if (isEmpty(groups)) return [];
    const rows = await selectRows<ProfileRow>(
      this.db,
      sql`select p.project_id, p.group_key, p.profile_id, p.properties::text as properties, p.property_times::text as property_times,
            p.version::text as version, p.created_at::text as created_at, ${epochMs('p.created_at')} as created_ms, ${epochMs('p.updated_at')} as updated_ms
          from ${PROFILES} p
          join jsonb_to_recordset(${profileKeys(groups)}::jsonb) as k(project_id integer, group_key text, profile_id text)
            on ${pgScopes(scopesOf(groups), 'p', 'k')} and p.group_key = k.group_key and p.profile_id = k.profile_id
          order by p.project_id, p.group_key, p.profile_id
          ${lock}`,
    );
    return rows.map((row) => ({
      ...toWritten(row),
      properties: parseJson(row.properties) as Properties,
      stamps: JSON.parse(row.property_times) as Record<string, number>,
      createdAt: row.created_at,
    }));
  }

  /**
   * Inserts or replaces whole rows, each with a new version from the one sequence. Statements of at
   * most 16 Mi characters (see statementsOf): a batch of large profiles as one parameter would pass
   * Postgres's 256 MB for one jsonb value (refused, SQLSTATE 54000) or the longest string V8 makes.
   */
  async save(groups: ScopedRows<ProfileWrite>[]): Promise<WrittenProfile[]> {
    const written: WrittenProfile[] = [];
    for (const rows of statementsOf(groups))
      written.push(...(await this.saveRows(scopesOf(groups), `[${rows.join(',')}]`)));
    return written;
  }

  private async saveRows(scopes: ProjectScope[], rows: string): Promise<WrittenProfile[]> {
    const written = await selectRows<WrittenRow>(
      this.db,
      sql`insert into ${PROFILES} (project_id, group_key, profile_id, properties, property_times, version, created_at, updated_at)
          select r.project_id, r.group_key, r.profile_id, r.properties, r.property_times, nextval('profile_versions'), coalesce(r.created_at, now()), now()
          from jsonb_to_recordset(${rows}::jsonb)
            as r(project_id integer, group_key text, profile_id text, properties jsonb, property_times jsonb, created_at timestamptz)
          where ${pgScopes(scopes, 'r')}
          on conflict (project_id, group_key, profile_id) do update set
            properties = excluded.properties, property_times = excluded.property_times, version = excluded.version,
            created_at = excluded.created_at, updated_at = excluded.updated_at
          returning project_id, group_key, profile_id, version::text as version, ${epochMs('created_at')} as created_ms, ${epochMs('updated_at')} as updated_ms`,
    );
    return written.map(toWritten);
  }

  /** Saves the `saved` rows and deletes the `gone` ones: the rows the mirror gets for both, tombstones for the deleted. */
  async replace(saved: ScopedRows<ProfileWrite>[], gone: ScopedRows<ProfileKey>[]): Promise<MirrorProfile[]> {
    const written = await this.save(saved);
    const deleted = await this.delete(gone);
    // RETURNING promises no order: each row finds its state by its identity (its project, its group's).
    const states = new Map(
      saved.flatMap(({ scope, rows }) =>
        rows.map((p) => [identityKey({ ...p, projectId: scope.projectId }), p.properties] as const),
      ),
    );
    return [
      ...written.map((row) => ({ ...row, properties: states.get(identityKey(row)) })),
      ...deleted.map((row) => ({ ...row, properties: undefined })),
    ];
  }

  /** Deletes the rows for good; each deletion gets a version above the row's, for the mirror's tombstone. */
  async delete(groups: ScopedRows<ProfileKey>[]): Promise<WrittenProfile[]> {
    if (isEmpty(groups)) return [];
    const deleted = await selectRows<WrittenRow>(
      this.db,
      sql`delete from ${PROFILES} p
          using jsonb_to_recordset(${profileKeys(groups)}::jsonb) as k(project_id integer, group_key text, profile_id text)
          where ${pgScopes(scopesOf(groups), 'p', 'k')} and p.group_key = k.group_key and p.profile_id = k.profile_id
          returning p.project_id, p.group_key, p.profile_id, nextval('profile_versions')::text as version,
            ${epochMs('p.created_at')} as created_ms, ${epochMs('now()')} as updated_ms`,
    );
    return deleted.map(toWritten);
  }

  /** Fresh versions for tombstones of profiles that are not (or no longer) stored. */
  async tombstoneVersions(count: number): Promise<string[]> {
    if (count === 0) return [];
    const rows = await selectRows<{ version: string }>(
      this.db,
      sql`select nextval('profile_versions')::text as version from generate_series(1, ${count}::integer)`,
    );
    return rows.map((row) => String(row.version));
  }

  /**
   * The next offset to apply per partition, locked until commit: a second writer on the same
   * partition (during a rebalance) waits here, then sees what the first applied.
   */
  async lockCheckpoints(partitions: KafkaPartition[]): Promise<Map<string, bigint>> {
    if (!partitions.length) return new Map();
    const keys = JSON.stringify(partitions.map(({ topic, partition }) => ({ topic, kafka_partition: partition })));
    await this.db.execute(
      sql`insert into ${OFFSETS} (topic, kafka_partition, next_offset)
          select c.topic, c.kafka_partition, 0 from jsonb_to_recordset(${keys}::jsonb) as c(topic text, kafka_partition integer)
          on conflict do nothing`,
    );
    const rows = await selectRows<{ topic: string; kafka_partition: number; next_offset: string }>(
      this.db,
      sql`select o.topic, o.kafka_partition, o.next_offset::text as next_offset
          from ${OFFSETS} o join jsonb_to_recordset(${keys}::jsonb) as c(topic text, kafka_partition integer)
            on o.topic = c.topic and o.kafka_partition = c.kafka_partition
          order by o.topic, o.kafka_partition
          for update of o`,
    );
    return new Map(
      rows.map((row) => [
        partitionKey({ topic: row.topic, partition: Number(row.kafka_partition) }),
        BigInt(row.next_offset),
      ]),
    );
  }

  async advanceCheckpoints(next: { topic: string; partition: number; nextOffset: bigint }[]): Promise<void> {
    if (!next.length) return;
    const rows = JSON.stringify(
      next.map((n) => ({ topic: n.topic, kafka_partition: n.partition, next_offset: n.nextOffset.toString() })),
    );
    await this.db.execute(
      sql`update ${OFFSETS} o set next_offset = greatest(o.next_offset, c.next_offset)
          from jsonb_to_recordset(${rows}::jsonb) as c(topic text, kafka_partition integer, next_offset bigint)
          where o.topic = c.topic and o.kafka_partition = c.kafka_partition`,
    );
  }
}
