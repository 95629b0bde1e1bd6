import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { parseAnnotationDate, parseDateRange } from './annotation-date';
import { AnnotationsError, AnnotationsErrorCode } from './annotations-error';
import { Annotation, AnnotationsRepository, ProjectTag } from './annotations.repository';

/** Ids are Postgres `serial`s: a larger number names nothing. */
const MAX_ID = 2_147_483_647;

export interface CreateAnnotation {
  scope: ProjectScope;
  date: string;
  description: string;
  tagIds?: number[];
  /** The user of the account that creates it; none for a project secret. */
  userId?: number;
}

export interface UpdateAnnotation {
  scope: ProjectScope;
  annotationId: number;
  description?: string;
  tagIds?: number[];
}

/** The rules of annotations and their tags. */
@Injectable()
export class AnnotationsService {
  constructor(private readonly repository: AnnotationsRepository) {}

  /** `names`: the range parameters' names in errors, where a route calls them otherwise. */
  list(
    scope: ProjectScope,
    fromDate?: string,
    toDate?: string,
    names?: readonly [string, string],
  ): Promise<Annotation[]> {
    return this.repository.list(scope, parseDateRange(fromDate, toDate, names));
  }

  async get(scope: ProjectScope, annotationId: number): Promise<Annotation> {
    const annotation = annotationId <= MAX_ID ? await this.repository.find(scope, annotationId) : undefined;
    if (!annotation) throw notFound(scope, annotationId);
    return annotation;
  }

  async create(command: CreateAnnotation): Promise<Annotation> {
    const date = parseAnnotationDate(command.date);
    const tagIds = await this.checkedTags(command.scope, command.tagIds ?? []);
    const id = await this.repository.create(command.scope, {
      date,
      description: command.description,
      userId: command.userId,
      tagIds,
    });
    return this.get(command.scope, id);
  }

  /** `date` is not patchable (refused by the request's validation); tags, when given, replace the annotation's. */
  async update(command: UpdateAnnotation): Promise<Annotation> {
    const tagIds = command.tagIds && (await this.checkedTags(command.scope, command.tagIds));
    const updated =
      command.annotationId <= MAX_ID &&
      (await this.repository.update(command.scope, command.annotationId, { description: command.description, tagIds }));
    if (!updated) throw notFound(command.scope, command.annotationId);
    return this.get(command.scope, command.annotationId);
  }

  async delete(scope: ProjectScope, annotationId: number): Promise<void> {
    const deleted = annotationId <= MAX_ID && (await this.repository.delete(scope, annotationId));
    if (!deleted) throw notFound(scope, annotationId);
  }

  listTags(scope: ProjectScope): Promise<ProjectTag[]> {
    return this.repository.listTags(scope);
  }

  /** Idempotent by name: asking again for an existing tag returns it. */
  createTag(scope: ProjectScope, name: string): Promise<ProjectTag> {
    return this.repository.createTag(scope, name);
  }

  /** Tag ids must name tags of this project (another project's tag is as unknown as a made-up id). */
  private async checkedTags(scope: ProjectScope, tagIds: number[]): Promise<number[]> {
    const wanted = [...new Set(tagIds)];
    const existing = await this.repository.existingTagIds(
      scope,
      wanted.filter((id) => id <= MAX_ID),
    );
    const unknown = wanted.filter((id) => !existing.has(id));
    if (unknown.length)
      throw new AnnotationsError(AnnotationsErrorCode.UnknownTags, `unknown tag ids: ${unknown.join(', ')}`);
    return wanted;
  }
}

const notFound = (scope: ProjectScope, annotationId: number) =>
  new AnnotationsError(
    AnnotationsErrorCode.NotFound,
    `annotation ${annotationId} not found in project ${scope.projectId}`,
  );
