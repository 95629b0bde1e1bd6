export { SavedReportsModule, SavedReportsStoreModule } from './saved-reports.module';
export { REPORT_KINDS, ReportKind, savedReports } from './saved-reports.schema';
export { DefinitionOf, NewSavedReport, SavedReport, SavedReportsService, SavedReportUpdate } from './saved-reports.service';
