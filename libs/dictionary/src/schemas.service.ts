import { RateLimit, RateLimiterFactory } from '@analytics/rate-limits';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { Clock } from '@analytics/clock';
import { DictionaryError, DictionaryErrorCode } from './dictionary-error';
import { DictionarySettings } from './dictionary-settings';
import {
  droppingOf,
  mergeSchema,
  parseEntityName,
  parseEntityType,
  parseSchema,
  parseSchemaEntry,
  SchemaEntry,
} from './schema-document';
import { SchemaEventDictionaryProvider } from './schema-event-dictionary.provider';
import { DictionaryWriteScope, schemaKey, SchemasRepository, SchemaWrite } from './schemas.repository';
import { StoredSchema } from './schemas.schema';
import { SeenDictionaryEvent, seenDictionary } from './seen-dictionary';
import { SeenEventsRepository } from './seen-events.repository';

const DAY_MS = 86_400_000;

/** Who changes a project's dictionary: writes are limited per organization, as in the real API. */
export interface DictionaryWriter {
  scope: ProjectScope;
  organizationId: number;
}

export interface UploadSchema extends DictionaryWriter {
  entityType: string;
  name: string;
  /** The schema as sent; checked here. */
  schema: unknown;
}

export interface UploadSchemas extends DictionaryWriter {
  /** The entries as sent; checked here. */
  entries: unknown[];
  truncate: boolean;
}

/** No entity type: the whole dictionary; no name: every schema of the entity type. */
export interface DeleteSchemas extends DictionaryWriter {
  entityType?: string;
  name?: string;
}

export interface SeenListing {
  since: Date;
  events: SeenDictionaryEvent[];
}

/** The rules of the data dictionary: validation, metadata merging, the write limit, and telling the gateways. */
@Injectable()
export class SchemasService {
  private readonly writeLimit: RateLimit;

  constructor(
    private readonly repository: SchemasRepository,
    private readonly seenEvents: SeenEventsRepository,
    private readonly dictionaries: SchemaEventDictionaryProvider,
    private readonly settings: DictionarySettings,
    private readonly clock: Clock,
    rateLimits: RateLimiterFactory,
  ) {
    this.writeLimit = rateLimits.create({
      name: 'schema-writes',
      points: settings.schemaWritesPerMinute,
      durationSeconds: 60,
    });
  }

  list(scope: ProjectScope, entityType?: string): Promise<StoredSchema[]> {
    return this.repository.list(scope, entityType === undefined ? undefined : parseEntityType(entityType));
  }

  async get(scope: ProjectScope, entityType: string, name: string): Promise<StoredSchema> {
    const schema = await this.repository.find(scope, parseEntityType(entityType), name);
    if (!schema)
      throw new DictionaryError(
        DictionaryErrorCode.NotFound,
        `no ${entityType} schema named ${JSON.stringify(name)} in project ${scope.projectId}`,
      );
    return schema;
  }

  /** Creates or replaces one schema (an absent body is an empty schema). */
  async uploadSchema(command: UploadSchema): Promise<void> {
    const entityType = parseEntityType(command.entityType);
    const entry = {
      entityType,
      name: parseEntityName(command.name),
      schema: parseSchema(command.schema ?? {}, entityType),
    };
    await this.write(command, () =>
      this.repository.write(command.scope, (dictionary) => this.store(dictionary, [entry])),
    );
  }

  /** Creates or replaces many; with `truncate`, the whole dictionary goes first, in the same transaction. */
  async uploadSchemas(command: UploadSchemas): Promise<{ added: number; deleted: number }> {
    const entries = command.entries.map((entry, index) => parseSchemaEntry(entry, `entries[${index}]`));
    return this.write(command, () =>
      this.repository.write(command.scope, async (dictionary) => {
        const deleted = command.truncate ? await dictionary.deleteAll() : 0;
        return { added: await this.store(dictionary, entries), deleted };
      }),
    );
  }

  /** The number of schemas removed (0 when there was none). */
  async deleteSchemas(command: DeleteSchemas): Promise<number> {
    const entityType = command.entityType === undefined ? undefined : parseEntityType(command.entityType);
    return this.write(command, () => this.repository.delete(command.scope, { entityType, name: command.name }));
  }

  /** Events received in the last days beside the described ones, with their properties. */
  async listSeen(scope: ProjectScope): Promise<SeenListing> {
    const since = new Date(this.clock.now() - this.settings.seenDays * DAY_MS);
    const [described, seen] = await Promise.all([
      this.repository.list(scope, 'event'),
      this.seenEvents.since(scope, since.getTime()),
    ]);
    return {
      since,
      events: seenDictionary(
        described.map((row) => ({ name: row.name, schema: row.schemaJson })),
        seen,
      ),
    };
  }

  /** Counts the write against the organization's limit, runs it, and makes this process's gateway re-read. */
  private async write<T>(writer: DictionaryWriter, work: () => Promise<T>): Promise<T> {
    const decision = await this.writeLimit.consume(writer.organizationId);
    if (!decision.allowed) {
      const message = `too many schema changes: at most ${this.settings.schemaWritesPerMinute} per minute per organization`;
      throw new DictionaryError(DictionaryErrorCode.RateLimited, message, decision.retryAfterSeconds);
    }
    try {
      return await work();
    } finally {
      this.dictionaries.invalidate(writer.scope);
    }
  }

  /** Merges each entry with what is stored (or came earlier in the same batch) and writes them; how many were written. */
  private async store(dictionary: DictionaryWriteScope, entries: SchemaEntry[]): Promise<number> {
    const stored = await dictionary.find(entries);
    const written = new Map<string, SchemaWrite>();
    for (const { entityType, name, schema } of entries) {
      const key = schemaKey(entityType, name);
      const schemaJson = mergeSchema(written.get(key)?.schemaJson ?? stored.get(key), schema);
      written.set(key, { entityType, name, schemaJson, ...droppingOf(entityType, schemaJson) });
    }
    await dictionary.upsert([...written.values()]);
    return written.size;
  }
}
