import { profileTimestamp } from './profile-time';
import { OperationName, ProfileUpdate, Properties, PropertyValue } from './profile-update';
import { describeValue, numericValue, sameValue } from './property-values';

/** A stored profile: its properties, and when each property was last written. */
export interface ProfileState {
  properties: Properties;
  /** Ms of the last write of each property, kept after `$unset`: an older `$time` loses to it. */
  stamps: Record<string, number>;
}

export type ApplyOutcome = { ok: true; state: ProfileState | undefined } | { ok: false; message: string };

/** Operations that create a missing profile; `$unset` and `$remove` of a missing one do nothing. */
const CREATING = new Set<OperationName>(['$set', '$set_once', '$add', '$union', '$append']);
/** Operations that move `$last_seen` (unless `$ignore_time`), as the real API documents. */
const TOUCHING = new Set<OperationName>(['$set', '$add', '$append']);

/** Thrown by an operation that cannot apply to what the profile holds; the whole record fails. */
class Inapplicable extends Error {}

/**
 * The semantics of one update, applied to a profile (undefined: none). Pure: the writer folds each
 * batch through it before storing. It works on a copy, so a record that fails changes nothing.
 */
export function applyProfileUpdate(current: ProfileState | undefined, update: ProfileUpdate): ApplyOutcome {
  if (update.op === '$delete') return { ok: true, state: undefined };
  if (!current && !CREATING.has(update.op)) return { ok: true, state: undefined };
  const state: ProfileState = current
    ? { properties: { ...current.properties }, stamps: { ...current.stamps } }
    : { properties: { $created: profileTimestamp(update.timeMs) }, stamps: {} };
  if (TOUCHING.has(update.op) && !update.ignoreTime) touch(state, update.timeMs);
  try {
    applyOperation(state, update);
  } catch (error) {
    if (error instanceof Inapplicable) return { ok: false, message: error.message };
    throw error;
  }
  if (update.geo) Object.assign(state.properties, update.geo);
  return { ok: true, state };
}

function touch(state: ProfileState, timeMs: number): void {
  const seen = profileTimestamp(timeMs);
  const current = state.properties.$last_seen;
  if (typeof current !== 'string' || current < seen) state.properties.$last_seen = seen;
}

/** An update with a `$time` older than the property's last write must not overwrite it. */
const isStale = (state: ProfileState, name: string, update: ProfileUpdate) => update.timed && (state.stamps[name] ?? -Infinity) > update.timeMs;

function write(state: ProfileState, name: string, value: PropertyValue | undefined, timeMs: number): void {
  if (value === undefined) delete state.properties[name];
  else state.properties[name] = value;
  state.stamps[name] = Math.max(state.stamps[name] ?? timeMs, timeMs);
}

function applyOperation(state: ProfileState, update: ProfileUpdate): void {
  const { properties } = state;
  switch (update.op) {
    case '$set':
      for (const [name, value] of Object.entries(update.properties)) if (!isStale(state, name, update)) write(state, name, value, update.timeMs);
      return;
    case '$set_once':
      for (const [name, value] of Object.entries(update.properties)) if (!Object.hasOwn(properties, name)) write(state, name, value, update.timeMs);
      return;
    case '$unset':
      for (const name of update.names) if (!isStale(state, name, update)) write(state, name, undefined, update.timeMs);
      return;
    case '$add':
      for (const [name, by] of Object.entries(update.properties)) write(state, name, sum(properties, name, by), update.timeMs);
      return;
    case '$append':
      for (const [name, value] of Object.entries(update.properties)) write(state, name, [...listAt(properties, name, '$append'), value], update.timeMs);
      return;
    case '$union':
      for (const [name, values] of Object.entries(update.properties)) write(state, name, union(listAt(properties, name, '$union'), values), update.timeMs);
      return;
    case '$remove':
      for (const [name, value] of Object.entries(update.properties)) {
        const list = listAt(properties, name, '$remove');
        // Removing from a missing list leaves it missing.
        if (Object.hasOwn(properties, name)) write(state, name, list.filter((item) => !sameValue(item, value)), update.timeMs);
      }
      return;
    case '$delete':
      return;
  }
}

/**
 * A missing property counts as 0; anything but a number fails the record. An integer beyond 2^53
 * plus an integer stays exact.
 */
function sum(properties: Properties, name: string, by: number): PropertyValue {
  const current = Object.hasOwn(properties, name) ? properties[name] : 0;
  if (JSON.isRawJSON(current) && /^-?\d+$/.test(current.rawJSON) && Number.isInteger(by)) {
    const exact = BigInt(current.rawJSON) + BigInt(by);
    return Number.isSafeInteger(Number(exact)) ? Number(exact) : JSON.rawJSON(exact.toString());
  }
  const value = numericValue(current);
  if (value === undefined) throw new Inapplicable(`$add: "${name}" holds ${describeValue(current)}, not a number`);
  if (!Number.isFinite(value + by)) throw new Inapplicable(`$add: "${name}" would leave the range of numbers`);
  return value + by;
}

/** A list property (missing: empty); one holding anything else fails the record. */
function listAt(properties: Properties, name: string, op: string): PropertyValue[] {
  if (!Object.hasOwn(properties, name)) return [];
  const value = properties[name];
  if (!Array.isArray(value)) throw new Inapplicable(`${op}: "${name}" holds ${describeValue(value)}, not a list`);
  return value;
}

/** Each new value once: duplicates already in the list stay, new ones are added in order, once. */
function union(list: PropertyValue[], values: PropertyValue[]): PropertyValue[] {
  const result = [...list];
  for (const value of values) if (!result.some((item) => sameValue(item, value))) result.push(value);
  return result;
}
