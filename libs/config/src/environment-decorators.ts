/** How environment variables are read: blank counts as unset, numbers, flags and lists from text, each with one clear message. */
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

/** Empty strings count as unset, so `FOO=` in a shell behaves like no FOO at all. */
export const blankToUndefined = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const toInteger = ({ value }: { value: unknown }): unknown => {
  const v = blankToUndefined({ value });
  if (typeof v !== 'string') return v;
  return /^-?\d+$/.test(v.trim()) ? Number(v) : v;
};

const toBoolean = ({ value }: { value: unknown }): unknown => {
  const v = blankToUndefined({ value });
  if (typeof v !== 'string') return v;
  const normalized = v.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(normalized)) return true;
  if (['0', 'false', 'no', 'off'].includes(normalized)) return false;
  return v;
};

export const toList = ({ value }: { value: unknown }): unknown => {
  const v = blankToUndefined({ value });
  if (typeof v !== 'string') return v;
  return v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
};

const integer = (min: number, max: number) => [
  Transform(toInteger),
  IsOptional(),
  IsInt({ message: `must be a whole number from ${min} to ${max}` }),
  Min(min, { message: `must be a whole number from ${min} to ${max}` }),
  Max(max, { message: `must be a whole number from ${min} to ${max}` }),
];

export function apply(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => decorators.forEach((d) => d(target, key));
}
export const Integer = (min: number, max: number): PropertyDecorator => apply(...integer(min, max));
export const OptionalText = (): PropertyDecorator => apply(Transform(blankToUndefined), IsOptional(), IsString());
export const Flag = (): PropertyDecorator =>
  apply(Transform(toBoolean), IsOptional(), IsBoolean({ message: 'must be true or false (also 1/0, yes/no)' }));
/**
 * An optional text setting of one format. Blank counts as unset first, so `KEY=` (an empty value in a
 * Kubernetes secret, a shell) never reaches the pattern and stops the start.
 */
export const Matching = (pattern: RegExp, message: string): PropertyDecorator =>
  apply(Transform(blankToUndefined), IsOptional(), Matches(pattern, { message }));
