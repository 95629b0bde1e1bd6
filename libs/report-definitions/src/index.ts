export { CohortBehavior, CohortDefinition, isBehaviorCohort, validateCohortDefinition } from './cohort-definition';
export { checkExpression, ExpressionSource } from './expression-check';
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
} from './funnel-definition';
export {
  DEFAULT_INSIGHTS_LIMIT,
  INSIGHTS_MATH,
  INSIGHTS_UNITS,
  InsightsMath,
  InsightsMetric,
  InsightsParams,
  InsightsUnit,
  MAX_INSIGHTS_LIMIT,
  MAX_INSIGHTS_METRICS,
  PROPERTY_MATH,
  validateInsightsParams,
} from './insights-definition';
export { invalidDefinition, ReportsError, ReportsErrorCode } from './reports-error';
