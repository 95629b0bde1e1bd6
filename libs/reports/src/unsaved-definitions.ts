import {
  FunnelDefinition,
  InsightsParams,
  ReportsError,
  ReportsErrorCode,
  validateFunnelDefinition,
  validateInsightsParams,
} from '@analytics/report-definitions';
import { ClassConstructor, plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';
import { FunnelDefinitionDto, InsightsParamsDto } from './saved-reports.dto';

const invalid = (message: string) => new ReportsError(ReportsErrorCode.InvalidDefinition, message);

/** The first broken rule, named by its path in the definition (`events.0.math must be one of …`). */
function firstProblem(error: ValidationError, path = ''): string {
  const message = Object.values(error.constraints ?? {})[0];
  if (message !== undefined || !error.children?.length) return `${path}${message ?? `${error.property} is invalid`}`;
  return firstProblem(error.children[0], `${path}${error.property}.`);
}

/** The JSON of `params`, shaped as `dto` (the body a save takes), or a 400 naming the first broken rule. */
function unsaved<T>(text: string, dto: ClassConstructor<object>, what: string): T {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    raw = undefined;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw invalid(`params must be a JSON object: ${what}`);
  const errors = validateSync(plainToInstance(dto, raw), { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length > 0) throw invalid(`params: ${firstProblem(errors[0])}`);
  return raw as T;
}

/**
 * An insights definition sent with the query instead of saved first (the console runs a report as it
 * is built): held to every rule a save holds it to, so an unsaved report can do nothing a saved one cannot.
 */
export function unsavedInsightsParams(text: string): InsightsParams {
  return validateInsightsParams(
    unsaved<InsightsParams>(text, InsightsParamsDto, 'an insights definition, as a saved report holds'),
  );
}

/** A funnel definition (steps, window, where) sent with the query instead of saved first, held to a save's rules. */
export function unsavedFunnelDefinition(text: string): FunnelDefinition {
  return validateFunnelDefinition(
    unsaved<FunnelDefinition>(text, FunnelDefinitionDto, 'a funnel definition (steps, length, length_unit, where)'),
  );
}
