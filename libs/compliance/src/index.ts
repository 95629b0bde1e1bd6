export { ComplianceModule } from './compliance.module';
