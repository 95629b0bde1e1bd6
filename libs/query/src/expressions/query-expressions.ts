import {
  childrenOf,
  CompiledSql,
  compileSegment,
  compileWhere,
  evaluate,
  eventRow,
  eventsScope,
  Expression,
  ExpressionError,
  ExpressionLookups,
  keepsRow,
  parseExpression,
  segmentKey,
} from '@analytics/expression';
import { QueryError, QueryErrorCode } from '../query-error';
import { QueryEvent } from '../reference/query-event';

/**
 * The one seam between the reports and the expression language (@analytics/expression): parsing,
 * compiling to bound SQL over the events table, and the reference evaluation of the same trees.
 */

/** A parsed `where` / `on` / `born_where`, with the parameter it came from for error messages. */
export interface EventExpression {
  readonly field: string;
  readonly text: string;
  readonly tree: Expression;
  /** The project's lookup tables the expression may read (`properties["p"]["column"]`); none when absent. */
  readonly lookups?: ExpressionLookups;
}

/**
 * The column of a report's events holding the JSON properties of the event's person's profile ('' without
 * one), in the reports that join profiles (`eventsWithProfilesSql`); `user["…"]` reads it.
 */
export const USER_PROPERTIES_COLUMN = 'user_properties';

/** Whether an expression may read `user["…"]`: only in the reports that join profiles. */
export interface ExpressionSources {
  readonly profiles?: boolean;
}

const EVENTS = eventsScope();

/** The events as an expression reads them: with the project's lookup tables, and profiles where the report joins them. */
function scopeOf(expression: EventExpression, sources: ExpressionSources) {
  if (!expression.lookups && !sources.profiles) return EVENTS;
  return eventsScope({
    lookups: expression.lookups,
    ...(sources.profiles && { userPropertiesJson: USER_PROPERTIES_COLUMN }),
  });
}

/** Whether any of the expressions reads a profile property (`user["…"]`). */
export function readsProfiles(expressions: readonly (EventExpression | undefined)[]): boolean {
  const reads = (tree: Expression): boolean =>
    (tree.type === 'property' && tree.source === 'user') || childrenOf(tree).some(reads);
  return expressions.some((expression) => expression !== undefined && reads(expression.tree));
}

const isEventExpression = (value: object): value is EventExpression =>
  'tree' in value && 'field' in value && 'text' in value;

/**
 * The spec with every expression in it given the project's lookup tables: the services call it once
 * a report's spec is parsed, so the SQL builders, which take specs, compile lookups without a new
 * parameter each. Plain objects and arrays are copied; anything else is kept as it is.
 */
export function withLookups<T>(spec: T, lookups: ExpressionLookups): T {
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return value;
    if (isEventExpression(value)) return { ...value, lookups };
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, visit(item)]));
  };
  return visit(spec) as T;
}

function refused(field: string, error: unknown): never {
  if (error instanceof ExpressionError)
    throw new QueryError(QueryErrorCode.InvalidExpression, `${field}: ${error.message}`);
  throw error;
}

export function parseEventExpression(field: string, text: string): EventExpression {
  try {
    return { field, text, tree: parseExpression(text) };
  } catch (error) {
    return refused(field, error);
  }
}

/** The optional expression of a parameter: absent or empty means none. */
export function optionalEventExpression(field: string, text: string | undefined | null): EventExpression | undefined {
  return text === undefined || text === null || text === '' ? undefined : parseEventExpression(field, text);
}

/**
 * A UInt8 condition over the events table, its parameters named after `prefix`; `user["…"]` is
 * refused unless the report joins profiles (`sources.profiles`).
 */
export function whereSql(expression: EventExpression, prefix: string, sources: ExpressionSources = {}): CompiledSql {
  try {
    return compileWhere(expression.tree, scopeOf(expression, sources), { prefix });
  } catch (error) {
    return refused(expression.field, error);
  }
}

/** A Nullable(String) segment key over the events table; NULL where the value is undefined. */
export function segmentSql(expression: EventExpression, prefix: string, sources: ExpressionSources = {}): CompiledSql {
  try {
    return compileSegment(expression.tree, scopeOf(expression, sources), { prefix });
  } catch (error) {
    return refused(expression.field, error);
  }
}

/** Several conditions that must all hold, as one SQL condition with their parameters merged. */
export function allOf(expressions: readonly (EventExpression | undefined)[], prefix: string): CompiledSql {
  const compiled = expressions
    .filter((e): e is EventExpression => e !== undefined)
    .map((e, i) => whereSql(e, `${prefix}${i}`));
  if (compiled.length === 0) return { sql: '1', params: {} };
  return {
    sql: compiled.map((c) => c.sql).join(' AND '),
    params: Object.assign({}, ...compiled.map((c) => c.params)) as CompiledSql['params'],
  };
}

function row(event: QueryEvent) {
  return eventRow(
    {
      event: event.event,
      timeMs: event.timeMs,
      properties: { ...event.properties, distinct_id: event.distinctId, $insert_id: event.insertId },
    },
    event.user,
  );
}

/** The reference evaluation: whether every given expression keeps the event. */
export function keepsEvent(expressions: readonly (EventExpression | undefined)[], event: QueryEvent): boolean {
  return expressions.every((expression) => expression === undefined || keepsRow(expression.tree, row(event)));
}

export function segmentOfEvent(expression: EventExpression, event: QueryEvent): string | undefined {
  return segmentKey(expression.tree, row(event));
}

/** `properties["<name>"]` for a property named by a parameter (`name`, `property`): built as a tree, never as text. */
export function propertyExpression(field: string, name: string): EventExpression {
  const tree: Expression = { type: 'property', source: 'properties', path: [name], start: 0, end: 0 };
  return { field, text: `properties[${JSON.stringify(name)}]`, tree };
}

/** `defined(e * 1)` holds exactly when e is a number: arithmetic on anything else is undefined. */
function isNumberTree(tree: Expression): Expression {
  const span = { start: tree.start, end: tree.end };
  const timesOne: Expression = {
    type: 'binary',
    operator: '*',
    left: tree,
    right: { type: 'literal', value: 1, ...span },
    ...span,
  };
  return { type: 'call', name: 'defined', argument: timesOne, ...span };
}

/**
 * The expression's value where it is a number, 0.0 elsewhere (the rule of /segmentation/sum), as a
 * Float64: numbers travel through their shortest decimal text, which parses back exactly.
 */
export function numberOrZeroSql(
  expression: EventExpression,
  prefix: string,
  sources: ExpressionSources = {},
): CompiledSql {
  const isNumber = isNumberSql(expression, `${prefix}n`, sources);
  const text = segmentSql(expression, `${prefix}v`, sources);
  return {
    sql: `if(${isNumber.sql}, toFloat64OrZero(ifNull(${text.sql}, '')), 0)`,
    params: { ...isNumber.params, ...text.params },
  };
}

/** Whether the expression is a number on the event, as a UInt8 condition. */
export function isNumberSql(expression: EventExpression, prefix: string, sources: ExpressionSources = {}): CompiledSql {
  return whereSql({ ...expression, tree: isNumberTree(expression.tree) }, prefix, sources);
}

/** The reference twin: the number, or undefined when the value is not one. */
export function numberOfEvent(expression: EventExpression, event: QueryEvent): number | undefined {
  const value = evaluate(expression.tree, row(event));
  return typeof value === 'number' ? value : undefined;
}
