/** Deeper than any event the rules accept (3 levels); beyond it the walk gives up and answers true. */
const MAX_WALK_DEPTH = 32;

/**
 * Whether a parsed JSON value holds a number that `matches`, or is nested too deep to tell (then
 * the caller takes its slower, exact path). A walk of the parsed values costs a fraction of a
 * regular-expression scan of the text.
 */
export function mayHoldNumber(value: unknown, matches: (n: number) => boolean, depth = 0): boolean {
  if (typeof value === 'number') return matches(value);
  if (typeof value !== 'object' || value === null) return false;
  if (depth >= MAX_WALK_DEPTH) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (mayHoldNumber(value[i], matches, depth + 1)) return true;
    return false;
  }
  for (const key in value) if (mayHoldNumber((value as Record<string, unknown>)[key], matches, depth + 1)) return true;
  return false;
}
