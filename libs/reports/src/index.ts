export { CohortBehavior, CohortDefinition, isBehaviorCohort, validateCohortDefinition } from './definitions/cohort-definition';
export { checkExpression, ExpressionSource } from './definitions/expression-check';
export {
  checkFunnelWindow,
  FunnelDefinition,
  FunnelStep,
  funnelWindowMs,
  LENGTH_UNITS,
  LengthUnit,
  MAX_FUNNEL_STEPS,
  MAX_FUNNEL_WINDOW_MS,
  validateFunnelDefinition,
} from './definitions/funnel-definition';
export {
  DEFAULT_INSIGHTS_LIMIT,
  INSIGHTS_MATH,
  INSIGHTS_UNITS,
  InsightsMath,
  InsightsMetric,
  InsightsParams,
  InsightsUnit,
  MAX_INSIGHTS_LIMIT,
  PROPERTY_MATH,
  validateInsightsParams,
} from './definitions/insights-definition';
export { ReportsError, ReportsErrorCode } from './reports-error';
export { SavedReportsModule, SavedReportsStoreModule } from './saved-reports.module';
export { REPORT_KINDS, ReportKind, savedReports } from './saved-reports.schema';
export { DefinitionOf, NewSavedReport, SavedReport, SavedReportsService, SavedReportUpdate } from './saved-reports.service';
