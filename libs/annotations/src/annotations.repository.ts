import { Postgres, selectRows } from '@analytics/postgres';
import { pgScope, pgScopeEq, ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { and, eq, inArray, SQL, sql } from 'drizzle-orm';
import { annotations, annotationTagLinks, annotationTags } from './annotations.schema';

export interface AnnotationUser {
  id: number;
  firstName: string;
  lastName: string;
}

export interface AnnotationTag {
  id: number;
  name: string;
}

export interface Annotation {
  id: number;
  date: Date;
  description: string;
  /** Absent when a project secret created it, or its user is gone. */
  user: AnnotationUser | undefined;
  tags: AnnotationTag[];
}

export interface ProjectTag extends AnnotationTag {
  projectId: number;
  hasAnnotations: boolean;
}

export interface NewAnnotation {
  date: Date;
  description: string;
  userId: number | undefined;
  tagIds: number[];
}

export interface AnnotationChanges {
  description?: string;
  tagIds?: number[];
}

interface AnnotationRow {
  id: number;
  date: Date | string;
  description: string;
  user_id: number | null;
  first_name: string | null;
  last_name: string | null;
  tags: AnnotationTag[] | string;
}

interface TagRow {
  id: number;
  name: string;
  project_id: number;
  has_annotations: boolean;
}

/** Both drivers parse `json` columns, but be safe about text too. */
const parsedJson = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

function toAnnotation(row: AnnotationRow): Annotation {
  return {
    id: Number(row.id),
    date: new Date(row.date),
    description: row.description,
    user:
      row.user_id === null
        ? undefined
        : { id: Number(row.user_id), firstName: row.first_name ?? '', lastName: row.last_name ?? '' },
    tags: parsedJson(row.tags),
  };
}

const toTag = (row: TagRow): ProjectTag => ({
  id: Number(row.id),
  name: row.name,
  projectId: Number(row.project_id),
  hasAnnotations: Boolean(row.has_annotations),
});

/** Annotations and tags of one project at a time: every method takes the project's scope. */
@Injectable()
export class AnnotationsRepository {
  constructor(private readonly postgres: Postgres) {}

  private get db() {
    return this.postgres.db;
  }

  /** Annotations in date order, optionally between two instants (inclusive). */
  async list(scope: ProjectScope, range: { from?: Date; to?: Date }): Promise<Annotation[]> {
    const where = [pgScope(scope, 'a')];
    if (range.from) where.push(sql`a.date >= ${range.from.toISOString()}::timestamptz`);
    if (range.to) where.push(sql`a.date <= ${range.to.toISOString()}::timestamptz`);
    return this.selectAnnotations(sql.join(where, sql` and `));
  }

  async find(scope: ProjectScope, id: number): Promise<Annotation | undefined> {
    const [annotation] = await this.selectAnnotations(sql`${pgScope(scope, 'a')} and a.id = ${id}`);
    return annotation;
  }

  async create(scope: ProjectScope, annotation: NewAnnotation): Promise<number> {
    return this.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(annotations)
        .values({
          projectId: scope.projectId,
          date: annotation.date,
          description: annotation.description,
          userId: annotation.userId ?? null,
        })
        .returning({ id: annotations.id });
      if (annotation.tagIds.length)
        await tx
          .insert(annotationTagLinks)
          .values(annotation.tagIds.map((tagId) => ({ annotationId: created.id, tagId })));
      return created.id;
    });
  }

  /** False when the project has no such annotation. Tags, when given, replace the annotation's tags. */
  async update(scope: ProjectScope, id: number, changes: AnnotationChanges): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const theAnnotation = and(pgScopeEq(annotations.projectId, scope), eq(annotations.id, id));
      const [found] = await tx.select({ id: annotations.id }).from(annotations).where(theAnnotation).for('update');
      if (!found) return false;
      if (changes.description !== undefined)
        await tx.update(annotations).set({ description: changes.description }).where(theAnnotation);
      if (changes.tagIds !== undefined) {
        await tx.delete(annotationTagLinks).where(eq(annotationTagLinks.annotationId, id));
        if (changes.tagIds.length)
          await tx.insert(annotationTagLinks).values(changes.tagIds.map((tagId) => ({ annotationId: id, tagId })));
      }
      return true;
    });
  }

  async delete(scope: ProjectScope, id: number): Promise<boolean> {
    const deleted = await this.db
      .delete(annotations)
      .where(and(pgScopeEq(annotations.projectId, scope), eq(annotations.id, id)))
      .returning({ id: annotations.id });
    return deleted.length > 0;
  }

  /** Which of these tag ids are tags of the project. */
  async existingTagIds(scope: ProjectScope, ids: number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows = await this.db
      .select({ id: annotationTags.id })
      .from(annotationTags)
      .where(and(pgScopeEq(annotationTags.projectId, scope), inArray(annotationTags.id, ids)));
    return new Set(rows.map((row) => row.id));
  }

  listTags(scope: ProjectScope): Promise<ProjectTag[]> {
    return this.selectTags(pgScope(scope, 't'));
  }

  /** Creates the tag unless the project has one of that name; either way returns the stored one. */
  async createTag(scope: ProjectScope, name: string): Promise<ProjectTag> {
    await this.db.insert(annotationTags).values({ projectId: scope.projectId, name }).onConflictDoNothing();
    const [tag] = await this.selectTags(sql`${pgScope(scope, 't')} and t.name = ${name}`);
    return tag;
  }

  private async selectAnnotations(where: SQL): Promise<Annotation[]> {
    const rows = await selectRows<AnnotationRow>(
      this.db,
      sql`select a.id, a.date, a.description, u.id as user_id, u.first_name, u.last_name,
            coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name) order by t.id)
                        from annotation_tag_links l join annotation_tags t on t.id = l.tag_id
                       where l.annotation_id = a.id), '[]'::json) as tags
          from annotations a left join users u on u.id = a.user_id
          where ${where}
          order by a.date, a.id`,
    );
    return rows.map(toAnnotation);
  }

  private async selectTags(where: SQL): Promise<ProjectTag[]> {
    const rows = await selectRows<TagRow>(
      this.db,
      sql`select t.id, t.name, t.project_id, exists (select 1 from annotation_tag_links l where l.tag_id = t.id) as has_annotations
          from annotation_tags t where ${where} order by t.id`,
    );
    return rows.map(toTag);
  }
}
