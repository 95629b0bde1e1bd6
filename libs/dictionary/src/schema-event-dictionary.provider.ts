import { EventDictionary } from '@analytics/events';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '@analytics/clock';
import { DictionarySettings } from './dictionary-settings';
import { DroppedDataMetrics } from './dropped-data.metrics';
import { buildEventDictionary } from './event-dictionary';
import { SchemasRepository } from './schemas.repository';

const CACHE_MAX_PROJECTS = 10_000;
/** After a failed refresh the last copy is kept; the next attempt waits at least this long. */
const RETRY_AFTER_FAILURE_MS = 1_000;

interface CachedDictionary {
  dictionary: EventDictionary | undefined;
  expiresAt: number;
}

/**
 * The gateway's view of each project's `dropped` flags (it stands in for the ingest lib's
 * EventDictionaryProvider). A copy is trusted for the cache TTL counted from when its read began,
 * so a change committed at time T reaches every request that starts after T + TTL on every
 * replica; the process that made the change forgets its copy at once. Concurrent requests share
 * one read. If Postgres fails, the last copy keeps serving (ingestion stays up) until a read works.
 */
@Injectable()
export class SchemaEventDictionaryProvider {
  private readonly cache = new Map<number, CachedDictionary>();
  private readonly reads = new Map<number, Promise<EventDictionary | undefined>>();
  private readonly logger = new Logger('EventDictionary');

  constructor(
    private readonly repository: SchemasRepository,
    private readonly settings: DictionarySettings,
    private readonly clock: Clock,
    private readonly metrics: DroppedDataMetrics,
  ) {}

  async forProject(scope: ProjectScope): Promise<EventDictionary | undefined> {
    const cached = this.cache.get(scope.projectId);
    if (cached && cached.expiresAt > this.clock.now()) return cached.dictionary;
    return this.reads.get(scope.projectId) ?? this.read(scope, cached);
  }

  /** After a change in this process: the next request reads the dictionary afresh. */
  invalidate(scope: ProjectScope): void {
    this.cache.delete(scope.projectId);
    this.reads.delete(scope.projectId);
  }

  private read(scope: ProjectScope, previous: CachedDictionary | undefined): Promise<EventDictionary | undefined> {
    const { projectId } = scope;
    const startedAt = this.clock.now();
    // A read that began before an invalidation must not store what it found.
    const current = () => this.reads.get(projectId) === read;
    const read: Promise<EventDictionary | undefined> = this.repository.droppingRules(scope).then(
      (rules) => {
        const dictionary = buildEventDictionary(rules, this.metrics);
        if (current()) this.remember(projectId, { dictionary, expiresAt: startedAt + this.settings.cacheTtlMs });
        return dictionary;
      },
      (error: unknown) => {
        if (!previous) throw error;
        this.logger.warn(
          `project ${projectId}: keeping the last dictionary, refresh failed: ${(error as Error).message}`,
        );
        if (current())
          this.remember(projectId, {
            dictionary: previous.dictionary,
            expiresAt: this.clock.now() + RETRY_AFTER_FAILURE_MS,
          });
        return previous.dictionary;
      },
    );
    this.reads.set(projectId, read);
    void read.finally(() => current() && this.reads.delete(projectId)).catch(() => undefined);
    return read;
  }

  private remember(projectId: number, entry: CachedDictionary): void {
    this.cache.delete(projectId);
    if (this.cache.size >= CACHE_MAX_PROJECTS) this.cache.delete(this.cache.keys().next().value as number);
    this.cache.set(projectId, entry);
  }
}
