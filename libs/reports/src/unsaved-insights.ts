import { InsightsParams, ReportsError, ReportsErrorCode, validateInsightsParams } from '@analytics/report-definitions';
import { plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';
import { InsightsParamsDto } from './saved-reports.dto';

const invalid = (message: string) => new ReportsError(ReportsErrorCode.InvalidDefinition, message);

/** The first broken rule, named by its path in the definition (`events.0.math must be one of …`). */
function firstProblem(error: ValidationError, path = ''): string {
  const message = Object.values(error.constraints ?? {})[0];
  if (message !== undefined || !error.children?.length) return `${path}${message ?? `${error.property} is invalid`}`;
  return firstProblem(error.children[0], `${path}${error.property}.`);
}

/**
 * An insights definition sent with the query instead of saved first (the console runs a report as it
 * is built): held to every rule a save holds it to, so an unsaved report can do nothing a saved one cannot.
 */
export function unsavedInsightsParams(text: string): InsightsParams {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    raw = undefined;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw invalid('params must be a JSON object: an insights definition, as a saved report holds');
  const errors = validateSync(plainToInstance(InsightsParamsDto, raw), { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length > 0) throw invalid(`params: ${firstProblem(errors[0])}`);
  return validateInsightsParams(raw as InsightsParams);
}
