export { AnnotationsModule } from './annotations.module';
