export { ExportModule } from './export.module';
export { exportedEventLineSql } from './exported-line';
