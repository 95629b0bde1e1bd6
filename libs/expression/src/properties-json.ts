import { JsonValue } from './value';

/** Integers this large are beyond ClickHouse's 64-bit JSON integers. */
const LARGEST_JSON_INTEGER = 2 ** 63;

/**
 * JSON text of properties that the compiled SQL reads exactly as the reference evaluator reads
 * the object. `JSON.stringify` writes doubles from 2^64 up to 1e21 as integer digits, and
 * ClickHouse's JSON functions refuse a whole document holding an integer beyond 64 bits (every
 * property of that row would read undefined); here such numbers get exponent notation instead.
 */
export function toPropertiesJson(value: JsonValue): string {
  if (typeof value === 'number') {
    return Number.isInteger(value) && Math.abs(value) >= LARGEST_JSON_INTEGER
      ? value.toExponential()
      : JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(toPropertiesJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${toPropertiesJson(item)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
