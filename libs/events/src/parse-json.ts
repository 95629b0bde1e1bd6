/** A run of 16 or more digits may be an integer beyond 2^53 that plain JSON.parse would round. */
const LONG_DIGIT_RUN = /\d{16}/;

function keepLargeIntegers(_key: string, value: unknown, context: { source?: string }): unknown {
  if (typeof value === 'number' && !Number.isSafeInteger(value) && context.source && /^-?\d+$/.test(context.source)) {
    return JSON.rawJSON(context.source);
  }
  return value;
}

/**
 * JSON.parse that keeps integers beyond 2^53 exactly as sent (as JSON.rawJSON values, which
 * JSON.stringify writes back verbatim), so exported values equal ingested ones. The slower
 * reviver path runs only for texts that contain such a digit run.
 */
export function parseJson(text: string): unknown {
  return LONG_DIGIT_RUN.test(text) ? JSON.parse(text, keepLargeIntegers) : JSON.parse(text);
}
