export { formatAnnotationDate, parseAnnotationDate, parseDateRange } from './annotation-date';
export { AnnotationsError, AnnotationsErrorCode } from './annotations-error';
export { AnnotationsModule } from './annotations.module';
export { Annotation, AnnotationTag, AnnotationUser, ProjectTag } from './annotations.repository';
export { AnnotationsService, CreateAnnotation, UpdateAnnotation } from './annotations.service';
