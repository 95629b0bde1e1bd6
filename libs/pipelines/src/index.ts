export { PipelinesModule } from './pipelines.module';
