export { ExportModule } from './export.module';
export { ExportRequest, MAX_EXPORT_LIMIT, parseExportRequest } from './export-request';
export { ExportService } from './export.service';
export { exportedEventLineSql } from './exported-line';
