import { booleanParameter } from '@analytics/http';
import { invalidField } from './pipeline-error';

/** A pipeline request's form or JSON fields, by name. */
export type Fields = Record<string, unknown>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** One form value as text; JSON bodies may carry numbers and booleans, which count as their text. */
export function text(fields: Fields, name: string): string | undefined {
  const value = fields[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw invalidField(name, 'must be a single value');
}

export function required(fields: Fields, name: string): string {
  const value = text(fields, name);
  if (value === undefined || value === '') throw invalidField(name, 'is required');
  return value;
}

export function oneOf<T extends string>(fields: Fields, name: string, allowed: readonly T[], fallback?: T): T {
  const value = text(fields, name);
  if ((value === undefined || value === '') && fallback !== undefined) return fallback;
  if (value === undefined || value === '') throw invalidField(name, `is required, one of ${allowed.join(', ')}`);
  if (!allowed.includes(value as T)) throw invalidField(name, `must be one of ${allowed.join(', ')}, got "${value}"`);
  return value as T;
}

export function flag(fields: Fields, name: string, fallback: boolean): boolean {
  const value = booleanParameter(text(fields, name), fallback);
  if (value === undefined) throw invalidField(name, `must be true or false, got "${text(fields, name)}"`);
  return value;
}

export function day(fields: Fields, name: string, optional: boolean): string | undefined {
  const value = text(fields, name);
  if (value === undefined || value === '') {
    if (optional) return undefined;
    throw invalidField(name, 'is required (yyyy-mm-dd)');
  }
  if (!DAY.test(value) || new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) !== value) {
    throw invalidField(name, `must be a date as yyyy-mm-dd, got "${value}"`);
  }
  return value;
}

export function matching(
  fields: Fields,
  name: string,
  pattern: RegExp,
  what: string,
  isRequired: boolean,
): string | undefined {
  const value = isRequired ? required(fields, name) : text(fields, name);
  if (value === undefined || value === '') return undefined;
  if (!pattern.test(value)) throw invalidField(name, `must be ${what}`);
  return value;
}
