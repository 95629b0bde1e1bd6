/**
 * A boolean request parameter as the API spells it: `true`/`1` or `false`/`0`; absent or empty
 * gives the fallback. Anything else is `undefined`, so each caller raises its own API's error.
 */
export function booleanParameter(text: string | null | undefined, fallback: boolean): boolean | undefined {
  if (text === undefined || text === null || text === '') return fallback;
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  return undefined;
}
