export { RetentionModule } from './retention.module';
