export { ExportModule } from './export.module';
