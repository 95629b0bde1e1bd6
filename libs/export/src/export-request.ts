import {
  booleanParameter,
  FROM_DATE_PARAMETER,
  PROJECT_ID_PARAMETER,
  QueryParameterDoc,
  requiredParameter,
  TO_DATE_PARAMETER,
  WHERE_PARAMETER,
} from '@analytics/http';
import { ExpressionError, parseExpression } from '@analytics/expression';
import { invalidParameter } from './export-error';
import { compileExportFilter, ExportFilter } from './export-filter';

export const MAX_EXPORT_LIMIT = 100_000;

export interface ExportRequest {
  /** Inclusive UTC days, `YYYY-MM-DD`. */
  fromDate: string;
  toDate: string;
  events?: string[];
  limit?: number;
  timeInMs: boolean;
  /** The `where` filter, parsed and compiled to SQL whose every value is a bound parameter. */
  where?: ExportFilter;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function day(params: URLSearchParams, name: string): string {
  const value = params.get(name);
  if (!value) throw invalidParameter(`${name} is required (yyyy-mm-dd)`);
  const parsed = new Date(`${value}T00:00:00Z`);
  if (!DAY.test(value) || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== value) {
    throw invalidParameter(`${name} must be a date as yyyy-mm-dd, got "${value}"`);
  }
  return value;
}

function events(value: string | null): string[] | undefined {
  if (value === null || value === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw invalidParameter('event must be a JSON array of event names, as in ["Signed up","Purchase"]');
  }
  if (!Array.isArray(parsed) || !parsed.every((name) => typeof name === 'string')) {
    throw invalidParameter('event must be a JSON array of event names, as in ["Signed up","Purchase"]');
  }
  return parsed;
}

function limit(value: string | null): number | undefined {
  if (value === null || value === '') return undefined;
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed < 1 || parsed > MAX_EXPORT_LIMIT) {
    throw invalidParameter(`limit must be a whole number from 1 to ${MAX_EXPORT_LIMIT}, got "${value}"`);
  }
  return parsed;
}

function flag(value: string | null, name: string): boolean {
  const parsed = booleanParameter(value, false);
  if (parsed === undefined) throw invalidParameter(`${name} must be true or false, got "${value}"`);
  return parsed;
}

function whereFilter(value: string | null): ExportFilter | undefined {
  if (value === null || value.trim() === '') return undefined;
  try {
    return compileExportFilter(parseExpression(value));
  } catch (error) {
    if (error instanceof ExpressionError) throw invalidParameter(`where: ${error.message}`);
    throw error;
  }
}

/** The raw export's parameters, with the real API's names and rules; `today` is the current UTC day. */
export function parseExportRequest(params: URLSearchParams, today: string): ExportRequest {
  const fromDate = day(params, 'from_date');
  const toDate = day(params, 'to_date');
  if (fromDate > toDate) throw invalidParameter(`from_date ${fromDate} is after to_date ${toDate}`);
  if (toDate > today) throw invalidParameter('to_date cannot be later than today');
  const where = whereFilter(params.get('where'));
  return {
    fromDate,
    toDate,
    events: events(params.get('event')),
    limit: limit(params.get('limit')),
    timeInMs: flag(params.get('time_in_ms'), 'time_in_ms'),
    where,
  };
}

/** The raw export's parameters, for the OpenAPI document (export-request.spec.ts checks the reads against it). */
export const EXPORT_PARAMETERS: readonly QueryParameterDoc[] = [
  PROJECT_ID_PARAMETER,
  requiredParameter(FROM_DATE_PARAMETER),
  requiredParameter(TO_DATE_PARAMETER),
  { name: 'event', description: 'A JSON array of event names to keep.', example: '["Signed up","Purchased"]' },
  {
    ...WHERE_PARAMETER,
    description:
      'A filter expression over the event, e.g. properties["plan"] == "pro" (the real API names it `where`).',
  },
  {
    name: 'limit',
    type: 'integer',
    description: `At most this many events (1 to ${MAX_EXPORT_LIMIT}).`,
    example: '1000',
  },
  {
    name: 'time_in_ms',
    type: 'boolean',
    description: 'Event times in milliseconds instead of seconds; default false.',
    example: 'true',
  },
];
