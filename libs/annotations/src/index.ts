export { AnnotationsModule, LegacyAnnotationsModule } from './annotations.module';
