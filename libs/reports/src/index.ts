export { SavedReportsModule, SavedReportsStoreModule } from './saved-reports.module';
export { SavedReport, SavedReportsService } from './saved-reports.service';
export { unsavedFunnelDefinition, unsavedInsightsParams } from './unsaved-definitions';
