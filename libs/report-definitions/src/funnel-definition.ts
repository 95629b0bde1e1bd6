import { invalidDefinition } from './reports-error';
import { checkOptionalExpression } from './expression-check';
import { optional } from './optional';

export const LENGTH_UNITS = ['second', 'minute', 'hour', 'day'] as const;
export type LengthUnit = (typeof LENGTH_UNITS)[number];

const UNIT_MS: Readonly<Record<LengthUnit, number>> = {
  second: 1_000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
};

/** The spec's cap on the conversion window. */
export const MAX_FUNNEL_WINDOW_MS = 90 * UNIT_MS.day;
export const MIN_FUNNEL_STEPS = 2;
/** Step masks are 64-bit and the SQL unrolls one search per step; 20 is far above what reports use. */
export const MAX_FUNNEL_STEPS = 20;

export interface FunnelStep {
  event: string;
  where?: string;
  label?: string;
}

/** A saved funnel: its steps, conversion window and a `where` that applies to every step. */
export interface FunnelDefinition {
  steps: FunnelStep[];
  length: number;
  length_unit: LengthUnit;
  where?: string;
}

export function funnelWindowMs(length: number, unit: LengthUnit): number {
  return length * UNIT_MS[unit];
}

/** The window rule shared by saved funnels and the query's overrides. */
export function checkFunnelWindow(length: number, unit: LengthUnit): void {
  if (!Number.isInteger(length) || length < 1) throw invalidDefinition('length must be a whole number of at least 1');
  if (funnelWindowMs(length, unit) > MAX_FUNNEL_WINDOW_MS)
    throw invalidDefinition(`length ${length} ${unit}(s) is longer than 90 days`);
}

/** The definition as stored: validated, expressions compiled once, empty optional fields dropped. */
export function validateFunnelDefinition(definition: FunnelDefinition): FunnelDefinition {
  const { steps, length, length_unit: unit } = definition;
  if (steps.length < MIN_FUNNEL_STEPS || steps.length > MAX_FUNNEL_STEPS) {
    throw invalidDefinition(`steps must hold ${MIN_FUNNEL_STEPS} to ${MAX_FUNNEL_STEPS} steps`);
  }
  checkFunnelWindow(length, unit);
  return {
    steps: steps.map((step, i) => ({
      event: step.event,
      ...optional('where', checkOptionalExpression(`steps[${i}].where`, step.where, 'events')),
      ...optional('label', step.label || undefined),
    })),
    length,
    length_unit: unit,
    ...optional('where', checkOptionalExpression('where', definition.where, 'events')),
  };
}
