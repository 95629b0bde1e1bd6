import { Injectable } from '@nestjs/common';
import { parseAnnotationDate, parseDateRange } from './annotation-date';
import { AnnotationsError, AnnotationsErrorCode } from './annotations-error';
import { Annotation, AnnotationsRepository, ProjectTag } from './annotations.repository';

/** Ids are Postgres `serial`s: a larger number names nothing. */
const MAX_ID = 2_147_483_647;

export interface CreateAnnotation {
  projectId: number;
  date: string;
  description: string;
  tagIds?: number[];
  /** The user of the account that creates it; none for a project secret. */
  userId?: number;
}

export interface UpdateAnnotation {
  projectId: number;
  annotationId: number;
  description?: string;
  tagIds?: number[];
}

/** The rules of annotations and their tags. */
@Injectable()
export class AnnotationsService {
  constructor(private readonly repository: AnnotationsRepository) {}

  list(projectId: number, fromDate?: string, toDate?: string): Promise<Annotation[]> {
    return this.repository.list(projectId, parseDateRange(fromDate, toDate));
  }

  async get(projectId: number, annotationId: number): Promise<Annotation> {
    const annotation = annotationId <= MAX_ID ? await this.repository.find(projectId, annotationId) : undefined;
    if (!annotation) throw notFound(projectId, annotationId);
    return annotation;
  }

  async create(command: CreateAnnotation): Promise<Annotation> {
    const date = parseAnnotationDate(command.date);
    const tagIds = await this.checkedTags(command.projectId, command.tagIds ?? []);
    const id = await this.repository.create(command.projectId, { date, description: command.description, userId: command.userId, tagIds });
    return this.get(command.projectId, id);
  }

  /** `date` is not patchable (refused by the request's validation); tags, when given, replace the annotation's. */
  async update(command: UpdateAnnotation): Promise<Annotation> {
    const tagIds = command.tagIds && (await this.checkedTags(command.projectId, command.tagIds));
    const updated = command.annotationId <= MAX_ID && (await this.repository.update(command.projectId, command.annotationId, { description: command.description, tagIds }));
    if (!updated) throw notFound(command.projectId, command.annotationId);
    return this.get(command.projectId, command.annotationId);
  }

  async delete(projectId: number, annotationId: number): Promise<void> {
    const deleted = annotationId <= MAX_ID && (await this.repository.delete(projectId, annotationId));
    if (!deleted) throw notFound(projectId, annotationId);
  }

  listTags(projectId: number): Promise<ProjectTag[]> {
    return this.repository.listTags(projectId);
  }

  /** Idempotent by name: asking again for an existing tag returns it. */
  createTag(projectId: number, name: string): Promise<ProjectTag> {
    return this.repository.createTag(projectId, name);
  }

  /** Tag ids must name tags of this project (another project's tag is as unknown as a made-up id). */
  private async checkedTags(projectId: number, tagIds: number[]): Promise<number[]> {
    const wanted = [...new Set(tagIds)];
    const existing = await this.repository.existingTagIds(projectId, wanted.filter((id) => id <= MAX_ID));
    const unknown = wanted.filter((id) => !existing.has(id));
    if (unknown.length) throw new AnnotationsError(AnnotationsErrorCode.UnknownTags, `unknown tag ids: ${unknown.join(', ')}`);
    return wanted;
  }
}

const notFound = (projectId: number, annotationId: number) =>
  new AnnotationsError(AnnotationsErrorCode.NotFound, `annotation ${annotationId} not found in project ${projectId}`);
