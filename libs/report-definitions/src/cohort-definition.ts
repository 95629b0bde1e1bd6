import { invalidDefinition } from './reports-error';
import { checkExpression, checkOptionalExpression } from './expression-check';
import { optional } from './optional';
import { MAX_LAST_DAYS } from './insights-definition';

/** Users who did `event` (matching `where`) at least `min_count` times in the last `last_days` days of the project's time zone, today included. */
export interface CohortBehavior {
  event: string;
  where?: string;
  min_count: number;
  last_days: number;
}

/** Either a condition on user profiles or a behaviour over events. */
export type CohortDefinition = { where: string } | { behavior: CohortBehavior };

export function isBehaviorCohort(definition: CohortDefinition): definition is { behavior: CohortBehavior } {
  return 'behavior' in definition;
}

function checkBehavior(behavior: CohortBehavior): CohortBehavior {
  if (!Number.isInteger(behavior.min_count) || behavior.min_count < 1)
    throw invalidDefinition('definition.behavior.min_count must be a whole number of at least 1');
  if (!Number.isInteger(behavior.last_days) || behavior.last_days < 1 || behavior.last_days > MAX_LAST_DAYS) {
    throw invalidDefinition(`definition.behavior.last_days must be a whole number from 1 to ${MAX_LAST_DAYS}`);
  }
  return {
    event: behavior.event,
    ...optional('where', checkOptionalExpression('definition.behavior.where', behavior.where, 'events')),
    min_count: behavior.min_count,
    last_days: behavior.last_days,
  };
}

export function validateCohortDefinition(definition: { where?: string; behavior?: CohortBehavior }): CohortDefinition {
  const { where, behavior } = definition;
  if ((where === undefined) === (behavior === undefined))
    throw invalidDefinition('definition needs exactly one of where (a profile expression) or behavior');
  if (behavior !== undefined) return { behavior: checkBehavior(behavior) };
  return { where: checkExpression('definition.where', where!, 'profiles') };
}
