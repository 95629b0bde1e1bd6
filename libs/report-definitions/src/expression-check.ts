import { compileSegment, compileWhere, eventsScope, ExpressionError, profilesScope } from '@analytics/expression';
import { invalidDefinition } from './reports-error';

/** What an expression reads: events (with no profile joined), or user profiles. */
export type ExpressionSource = 'events' | 'profiles';

const SCOPES = { events: eventsScope(), profiles: profilesScope() };

/**
 * Compiles an expression once at save time, so a report that was saved always runs: a bad one is a
 * 400 naming the field and the position.
 */
export function checkExpression(
  field: string,
  text: string,
  source: ExpressionSource,
  use: 'where' | 'on' = 'where',
): string {
  try {
    (use === 'where' ? compileWhere : compileSegment)(text, SCOPES[source], { prefix: 'check' });
    return text;
  } catch (error) {
    if (error instanceof ExpressionError) throw invalidDefinition(`${field}: ${error.message}`);
    throw error;
  }
}

/** Absent and empty expressions mean "none". */
export function checkOptionalExpression(
  field: string,
  text: string | undefined,
  source: ExpressionSource,
  use: 'where' | 'on' = 'where',
): string | undefined {
  return text === undefined || text === '' ? undefined : checkExpression(field, text, source, use);
}
