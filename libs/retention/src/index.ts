export { RetentionModule } from './retention.module';
export { RetentionSweeper } from './retention-sweeper';
