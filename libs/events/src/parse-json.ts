/** A run of 16 or more digits may be an integer beyond 2^53 that plain JSON.parse would round. */
const LONG_DIGIT_RUN = /\d{16}/;
/** Deeper than any event the rules accept (3 levels); beyond it the walk gives up and the text is scanned. */
const MAX_WALK_DEPTH = 32;

function keepLargeIntegers(_key: string, value: unknown, context: { source?: string }): unknown {
  if (typeof value === 'number' && !Number.isSafeInteger(value) && context.source && /^-?\d+$/.test(context.source)) {
    return JSON.rawJSON(context.source);
  }
  return value;
}

/** Whether a parsed value holds a number that may be a rounded integer (or is nested too deep to tell). */
function mayHoldRoundedInteger(value: unknown, depth: number): boolean {
  if (typeof value === 'number') return Number.isInteger(value) && !Number.isSafeInteger(value);
  if (typeof value !== 'object' || value === null) return false;
  if (depth >= MAX_WALK_DEPTH) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (mayHoldRoundedInteger(value[i], depth + 1)) return true;
    return false;
  }
  for (const key in value) if (mayHoldRoundedInteger((value as Record<string, unknown>)[key], depth + 1)) return true;
  return false;
}

/**
 * JSON.parse that keeps integers beyond 2^53 exactly as sent (as JSON.rawJSON values, which
 * JSON.stringify writes back verbatim), so exported values equal ingested ones. The parsed values
 * are checked first (every integer beyond 2^53 parses to an unsafe integer): about a tenth of the
 * cost of scanning the whole text for digit runs. Only then does the slower reviver parse run.
 */
export function parseJson(text: string): unknown {
  const value = JSON.parse(text);
  if (!mayHoldRoundedInteger(value, 0) || !LONG_DIGIT_RUN.test(text)) return value;
  return JSON.parse(text, keepLargeIntegers);
}
