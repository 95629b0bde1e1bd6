export { checkOptionalExpression } from './expression-check';
export { CohortBehavior, CohortDefinition, isBehaviorCohort, validateCohortDefinition } from './cohort-definition';
export {
  checkFunnelWindow,
  FunnelDefinition,
  funnelWindowMs,
  LENGTH_UNITS,
  LengthUnit,
  MAX_FUNNEL_STEPS,
  validateFunnelDefinition,
} from './funnel-definition';
export {
  DEFAULT_INSIGHTS_LIMIT,
  INSIGHTS_MATH,
  INSIGHTS_UNITS,
  InsightsMath,
  InsightsParams,
  InsightsUnit,
  MAX_INSIGHTS_METRICS,
  validateInsightsParams,
} from './insights-definition';
export { ReportsError, ReportsErrorCode } from './reports-error';
export {
  MAX_RETENTION_INTERVALS,
  RETENTION_TYPES,
  RETENTION_UNITS,
  RetentionDefinition,
  RetentionType,
  RetentionUnit,
  validateRetentionDefinition,
} from './retention-definition';
