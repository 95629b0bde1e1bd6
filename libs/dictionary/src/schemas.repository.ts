import { Database, Postgres } from '@analytics/postgres';
import { pgScopeEq, ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { and, asc, eq, inArray, or, SQL, sql } from 'drizzle-orm';
import { DroppingRule } from './event-dictionary';
import { ENTITY_TYPES, EntityType, SchemaDocument } from './schema-document';
import { dictionarySchemas, StoredSchema } from './schemas.schema';

export interface SchemaKey {
  entityType: EntityType;
  name: string;
}

export interface SchemaWrite extends SchemaKey {
  schemaJson: SchemaDocument;
  dropped: boolean;
  droppedProperties: string[];
}

/** Which part of a project's dictionary a delete removes: all of it, one entity type, or one schema. */
export interface SchemaSelection {
  entityType?: EntityType;
  name?: string;
}

/** Arbitrary constant naming the advisory locks that serialise each project's dictionary writes. */
const WRITE_LOCK_CLASS = 5_005_001;
/** Postgres allows 65535 bound values per statement; rows have five. */
const UPSERT_CHUNK = 1000;

export const schemaKey = (entityType: EntityType, name: string) => `${entityType}\u0000${name}`;

const columns = {
  entityType: dictionarySchemas.entityType,
  name: dictionarySchemas.name,
  schemaJson: dictionarySchemas.schemaJson,
};

function selectionWhere(scope: ProjectScope, selection: SchemaSelection): SQL | undefined {
  return and(
    pgScopeEq(dictionarySchemas.projectId, scope),
    selection.entityType === undefined ? undefined : eq(dictionarySchemas.entityType, selection.entityType),
    selection.name === undefined ? undefined : eq(dictionarySchemas.name, selection.name),
  );
}

/** One project's dictionary inside a write transaction; the project's writers take turns. */
export class DictionaryWriteScope {
  constructor(
    private readonly tx: Database,
    readonly scope: ProjectScope,
  ) {}

  /** The stored schemas among these keys, by {@link schemaKey}. */
  async find(keys: SchemaKey[]): Promise<Map<string, SchemaDocument>> {
    const byType = (type: EntityType) => [...new Set(keys.filter((k) => k.entityType === type).map((k) => k.name))];
    const wanted = ENTITY_TYPES.map((type) => [type, byType(type)] as const)
      .filter(([, names]) => names.length)
      .map(([type, names]) => and(eq(dictionarySchemas.entityType, type), inArray(dictionarySchemas.name, names)));
    if (!wanted.length) return new Map();
    const rows = await this.tx
      .select(columns)
      .from(dictionarySchemas)
      .where(and(pgScopeEq(dictionarySchemas.projectId, this.scope), or(...wanted)));
    return new Map(rows.map((row) => [schemaKey(row.entityType, row.name), row.schemaJson]));
  }

  /** Empties the project's dictionary; the number of schemas removed. */
  async deleteAll(): Promise<number> {
    const deleted = await this.tx
      .delete(dictionarySchemas)
      .where(pgScopeEq(dictionarySchemas.projectId, this.scope))
      .returning({ name: dictionarySchemas.name });
    return deleted.length;
  }

  async upsert(rows: SchemaWrite[]): Promise<void> {
    for (let start = 0; start < rows.length; start += UPSERT_CHUNK) {
      await this.tx
        .insert(dictionarySchemas)
        .values(rows.slice(start, start + UPSERT_CHUNK).map((row) => ({ ...row, projectId: this.scope.projectId })))
        .onConflictDoUpdate({
          target: [dictionarySchemas.projectId, dictionarySchemas.entityType, dictionarySchemas.name],
          set: {
            schemaJson: sql`excluded.schema_json`,
            dropped: sql`excluded.dropped`,
            droppedProperties: sql`excluded.dropped_properties`,
            updatedAt: sql`now()`,
          },
        });
    }
  }
}

/** The data dictionary in Postgres, one project at a time: every method takes the project's scope. */
@Injectable()
export class SchemasRepository {
  constructor(private readonly postgres: Postgres) {}

  private get db() {
    return this.postgres.db;
  }

  list(scope: ProjectScope, entityType?: EntityType): Promise<StoredSchema[]> {
    return this.db
      .select(columns)
      .from(dictionarySchemas)
      .where(selectionWhere(scope, { entityType }))
      .orderBy(asc(dictionarySchemas.entityType), asc(dictionarySchemas.name));
  }

  async find(scope: ProjectScope, entityType: EntityType, name: string): Promise<StoredSchema | undefined> {
    const [row] = await this.db
      .select(columns)
      .from(dictionarySchemas)
      .where(selectionWhere(scope, { entityType, name }));
    return row;
  }

  /** Runs `work` in one transaction holding the project's dictionary write lock. */
  write<T>(scope: ProjectScope, work: (dictionary: DictionaryWriteScope) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${WRITE_LOCK_CLASS}::int, ${scope.projectId}::int)`);
      return work(new DictionaryWriteScope(tx as unknown as Database, scope));
    });
  }

  /** The number of schemas removed. */
  async delete(scope: ProjectScope, selection: SchemaSelection): Promise<number> {
    const deleted = await this.db
      .delete(dictionarySchemas)
      .where(selectionWhere(scope, selection))
      .returning({ name: dictionarySchemas.name });
    return deleted.length;
  }

  /** The project's event schemas that drop anything (read through a partial index). */
  async droppingRules(scope: ProjectScope): Promise<DroppingRule[]> {
    const rows = await this.db
      .select({
        event: dictionarySchemas.name,
        dropped: dictionarySchemas.dropped,
        droppedProperties: dictionarySchemas.droppedProperties,
      })
      .from(dictionarySchemas)
      .where(
        and(
          pgScopeEq(dictionarySchemas.projectId, scope),
          eq(dictionarySchemas.entityType, 'event'),
          sql`(${dictionarySchemas.dropped} or cardinality(${dictionarySchemas.droppedProperties}) > 0)`,
        ),
      );
    return rows;
  }
}
