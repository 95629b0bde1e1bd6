import { ok } from '@analytics/http';
import { formatAnnotationDate } from './annotation-date';
import { Annotation, ProjectTag } from './annotations.repository';

/** An annotation as the API shows it; `user` is null when a project secret created it. */
export function annotationJson(annotation: Annotation) {
  const { user } = annotation;
  return {
    id: annotation.id,
    date: formatAnnotationDate(annotation.date),
    description: annotation.description,
    user: user ? { id: user.id, first_name: user.firstName, last_name: user.lastName } : null,
    tags: annotation.tags.map((tag) => ({ id: tag.id, name: tag.name })),
  };
}

export const tagJson = (tag: ProjectTag) => ({
  id: tag.id,
  name: tag.name,
  project_id: tag.projectId,
  has_annotations: tag.hasAnnotations,
});

export { ok };
