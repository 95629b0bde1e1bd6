export { ManagementModule } from './management.module';
