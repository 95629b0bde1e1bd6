import { IdSource } from '@analytics/clock';
import { AppConfig } from '@analytics/config';
import { EVENT_LIMITS, EventContext, EventRow, validateEvent } from '@analytics/events';
import { Project } from '@analytics/projects';
import { ProjectAuthenticator } from '@analytics/auth';
import { RateLimit, RateLimiterFactory } from '@analytics/rate-limits';
import { projectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { EventDictionaryProvider } from './event-dictionary.provider';
import { IngestError, SinkUnavailableError } from '@analytics/sdk-transport';
import { EventSink, RefusedEvent } from './event-sink';
import { FailedRecord, ImportOptions, IngestOutcome, TrackOptions } from './ingest-contract';
import { IngestMetrics } from './ingest-metrics';

/** The rules' wording for a record that is not an event object (validateEvent says the same). */
const NOT_AN_OBJECT = 'each event must be a JSON object';
const isEventObject = (record: unknown): boolean =>
  typeof record === 'object' && record !== null && !Array.isArray(record);

/** The events of a request that passed the rules, with their positions in the request. */
interface Validated {
  rows: EventRow[];
  indexes: number[];
  failed: FailedRecord[];
}

/** The rules of event ingestion: limits, validation, the data dictionary, and persisting before answering. */
@Injectable()
export class IngestService {
  private readonly rateLimit: RateLimit;
  private readonly newInsertId: () => string;

  constructor(
    config: AppConfig,
    rateLimits: RateLimiterFactory,
    private readonly sink: EventSink,
    private readonly dictionary: EventDictionaryProvider,
    private readonly authenticator: ProjectAuthenticator,
    private readonly metrics: IngestMetrics,
    ids: IdSource,
  ) {
    this.newInsertId = () => ids.uuid();
    this.rateLimit = rateLimits.create({
      name: 'ingest-events',
      points: config.ingest.eventsPerMinute,
      durationSeconds: 60,
    });
  }

  /**
   * Not an async function, nor is what runs after validation: an async frame keeps its locals and
   * arguments until it returns, so the parsed records and the rows would stay referenced while Kafka
   * acknowledges, and V8 promoted them to its old generation
   * (docs/benchmarks/2026-11-25-gateway-less-held-per-request.md). Only the messages and what the answer
   * needs wait for the broker.
   */
  importEvents(project: Project, records: unknown[], options: ImportOptions): Promise<IngestOutcome> {
    return this.validateImport(project, records, options).then((outcome) =>
      this.store(project.id, outcome, options.strict),
    );
  }

  private async validateImport(project: Project, records: unknown[], options: ImportOptions): Promise<Validated> {
    this.checkBatchSize(records);
    await this.checkRate(project.id, records.length);
    const context: EventContext = {
      projectId: project.id,
      nowMs: options.nowMs,
      policy: 'import',
      requireInsertId: options.requireInsertId,
      newInsertId: this.newInsertId,
      dictionary: await this.dictionary.forProject(projectScope(project.id)),
      identityMerge: project.identityMerge,
    };
    return this.validate(records, () => context, 'import', options.consumeRecords);
  }

  private store(projectId: number, outcome: Validated, strict: boolean): Promise<IngestOutcome> {
    const { failed } = outcome;
    const accepted = outcome.rows.length;
    return this.persist(projectId, outcome).then((refused) => ({
      imported: accepted - refused.length,
      failed: strict ? [...failed, ...refused].sort((a, b) => a.index - b.index) : [],
    }));
  }

  /** Client-side events: each carries its project's token in `properties.token`. */
  async trackEvents(records: unknown[], options: TrackOptions): Promise<IngestOutcome> {
    this.checkBatchSize(records);
    const { nowMs } = options;
    const failed: FailedRecord[] = [];
    const accepted: { projectId: number; validated: Validated }[] = [];
    // A record that is not an object has no token to name its project: it fails on its own.
    const objects = records.flatMap((record, index) => {
      if (isEventObject(record)) return [index];
      failed.push({ index, insert_id: '', field: 'event', message: NOT_AN_OBJECT });
      return [];
    });
    for (const { project, indexes } of await this.groupByProject(records, objects)) {
      if (!project) {
        indexes.forEach((index) =>
          failed.push({ index, insert_id: '', field: 'properties.token', message: 'unknown or missing project token' }),
        );
        continue;
      }
      await this.checkRate(project.id, indexes.length);
      const context: EventContext = {
        projectId: project.id,
        nowMs,
        policy: 'track',
        requireInsertId: false,
        newInsertId: this.newInsertId,
        ip: options.ip,
        dictionary: await this.dictionary.forProject(projectScope(project.id)),
        identityMerge: project.identityMerge,
      };
      const outcome = this.validate(
        indexes.map((i) => records[i]),
        () => context,
        'track',
      );
      failed.push(...outcome.failed.map((f) => ({ ...f, index: indexes[f.index] })));
      accepted.push({
        projectId: project.id,
        validated: { ...outcome, indexes: outcome.indexes.map((i) => indexes[i]) },
      });
    }
    let imported = 0;
    for (const { projectId, validated } of accepted) {
      const refused = await this.persist(projectId, validated);
      failed.push(...refused);
      imported += validated.rows.length - refused.length;
    }
    return { imported, failed: failed.sort((a, b) => a.index - b.index) };
  }

  /** The records at `indexes` grouped by the project their token names; unknown and missing tokens group under none. */
  private async groupByProject(
    records: unknown[],
    indexes: number[],
  ): Promise<{ project?: Project; indexes: number[] }[]> {
    const tokenOf = (index: number) => {
      const token = (records[index] as { properties?: { token?: unknown } }).properties?.token;
      return typeof token === 'string' && token ? token : undefined;
    };
    // Each distinct token is looked up once, all at once: a batch of many tokens costs one round of lookups.
    const tokens = [...new Set(indexes.map(tokenOf).filter((token) => token !== undefined))];
    const projects = new Map(
      await Promise.all(tokens.map(async (token) => [token, await this.authenticator.byToken(token)] as const)),
    );
    const groups = new Map<number, { project?: Project; indexes: number[] }>();
    for (const index of indexes) {
      const token = tokenOf(index);
      const project = token === undefined ? undefined : projects.get(token);
      const key = project?.id ?? 0;
      const group = groups.get(key) ?? { project, indexes: [] };
      group.indexes.push(index);
      groups.set(key, group);
    }
    return [...groups.values()];
  }

  private checkBatchSize(records: unknown[]): void {
    if (records.length > EVENT_LIMITS.maxEventsPerRequest) {
      throw new IngestError(
        400,
        `request has ${records.length} events; at most ${EVENT_LIMITS.maxEventsPerRequest} are allowed`,
      );
    }
  }

  private async checkRate(projectId: number, events: number): Promise<void> {
    const decision = await this.rateLimit.consume(projectId, events);
    if (!decision.allowed) {
      throw new IngestError(
        429,
        'project exceeded its ingestion rate limit; retry with backoff',
        decision.retryAfterSeconds,
      );
    }
  }

  private validate(records: unknown[], context: () => EventContext, endpoint: string, consume = false): Validated {
    const rows: EventRow[] = [];
    const indexes: number[] = [];
    const failed: FailedRecord[] = [];
    records.forEach((record, index) => {
      if (consume) records[index] = undefined;
      const outcome = validateEvent(record, context());
      if (outcome.kind === 'accepted') {
        rows.push(outcome.row);
        indexes.push(index);
      } else if (outcome.kind === 'rejected')
        failed.push({ index, insert_id: outcome.insertId, field: outcome.field, message: outcome.message });
      else this.metrics.events.inc({ endpoint, outcome: outcome.reason });
    });
    this.metrics.events.inc({ endpoint, outcome: 'accepted' }, rows.length);
    this.metrics.events.inc({ endpoint, outcome: 'rejected' }, failed.length);
    return { rows, indexes, failed };
  }

  /** Persists before the answer; events the store refused on their own come back as failed records. */
  private persist(projectId: number, { rows, indexes }: Validated): Promise<FailedRecord[]> {
    // Not through a closure: the closures below share this frame's context, and one that named `rows`
    // would keep every row referenced until the broker acknowledged, long enough for V8 to promote
    // them all to its old generation. A sink that throws rather than rejects is still a 503, not a 500.
    let published: Promise<RefusedEvent[]>;
    try {
      published = this.sink.publish(projectId, rows);
    } catch (error) {
      published = Promise.reject(error);
    }
    return published.then(
      (refused) =>
        refused.map(({ position, insertId, message }) => ({
          index: indexes[position],
          insert_id: insertId,
          field: 'event',
          message,
        })),
      (error: unknown) => {
        if (error instanceof SinkUnavailableError) throw new IngestError(503, error.message, 1);
        throw error;
      },
    );
  }
}
