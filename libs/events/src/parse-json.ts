import { mayHoldNumber } from './number-walk';

/** A run of 16 or more digits may be an integer beyond 2^53 that plain JSON.parse would round. */
const LONG_DIGIT_RUN = /\d{16}/;

function keepLargeIntegers(_key: string, value: unknown, context: { source?: string }): unknown {
  if (typeof value === 'number' && !Number.isSafeInteger(value) && context.source && /^-?\d+$/.test(context.source)) {
    return JSON.rawJSON(context.source);
  }
  return value;
}

/** Every integer beyond 2^53 parses to an unsafe integer: only then may one have been rounded. */
const isUnsafeInteger = (n: number) => Number.isInteger(n) && !Number.isSafeInteger(n);

/**
 * JSON.parse that keeps integers beyond 2^53 exactly as sent (as JSON.rawJSON values, which
 * JSON.stringify writes back verbatim), so exported values equal ingested ones. The parsed values
 * are checked first (every integer beyond 2^53 parses to an unsafe integer): about a tenth of the
 * cost of scanning the whole text for digit runs. Only then does the slower reviver parse run.
 */
export function parseJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (!mayHoldNumber(value, isUnsafeInteger) || !LONG_DIGIT_RUN.test(text)) return value;
  return JSON.parse(text, keepLargeIntegers);
}
