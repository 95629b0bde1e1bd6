export { UsageModule } from './usage.module';
