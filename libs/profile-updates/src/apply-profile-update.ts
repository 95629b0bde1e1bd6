import { Inapplicable, ProfileDraft, ProfileState, Refusal } from './profile-draft';
import { DEFAULT_PROFILE_LIMITS, ProfileLimits } from './profile-limits';
import { profileTimestamp } from './profile-time';
import { OperationName, ProfileUpdate, PropertyValue } from './profile-update';
import { describeValue, numericValue, valueKey } from './property-values';

export { ProfileState };

export type ApplyOutcome = { ok: true; state: ProfileState | undefined } | { ok: false; message: string };

/** Operations that create a missing profile; `$unset` and `$remove` of a missing one do nothing. */
const CREATING = new Set<OperationName>(['$set', '$set_once', '$add', '$union', '$append']);
/** Operations that move `$last_seen` (unless `$ignore_time`), as the real API documents. */
const TOUCHING = new Set<OperationName>(['$set', '$add', '$append']);

/**
 * The semantics of one update, applied to a profile (undefined: none). Pure: it works on a draft of
 * `current`, so a record that fails changes nothing. The writer keeps one draft per profile for a
 * whole batch instead (see {@link applyToDraft}).
 */
export function applyProfileUpdate(
  current: ProfileState | undefined,
  update: ProfileUpdate,
  limits: ProfileLimits = DEFAULT_PROFILE_LIMITS,
): ApplyOutcome {
  const draft = new ProfileDraft(current, limits);
  const refusal = applyToDraft(draft, update);
  return refusal ? { ok: false, message: refusal.message } : { ok: true, state: draft.state() };
}

/** Applies one update to a draft, whole or not at all; returns why it could not apply. */
export function applyToDraft(draft: ProfileDraft, update: ProfileUpdate): Refusal | undefined {
  if (update.op === '$delete') {
    draft.delete();
    return undefined;
  }
  if (!draft.exists && !CREATING.has(update.op)) return undefined;
  return draft.change(update.op, () => {
    if (!draft.exists) {
      draft.create();
      draft.write('$created', profileTimestamp(update.timeMs));
    }
    if (TOUCHING.has(update.op) && !update.ignoreTime) touch(draft, update.timeMs);
    applyOperation(draft, update);
    for (const [name, value] of Object.entries(update.geo ?? {})) draft.write(name, value);
  });
}

function touch(draft: ProfileDraft, timeMs: number): void {
  const seen = profileTimestamp(timeMs);
  const current = draft.value('$last_seen');
  if (typeof current !== 'string' || current < seen) draft.write('$last_seen', seen);
}

/** An update with a `$time` older than the property's last write must not overwrite it. */
const isStale = (draft: ProfileDraft, name: string, update: ProfileUpdate) =>
  update.timed && (draft.stampOf(name) ?? -Infinity) > update.timeMs;

function applyOperation(draft: ProfileDraft, update: ProfileUpdate): void {
  const { timeMs } = update;
  switch (update.op) {
    case '$set':
      for (const [name, value] of Object.entries(update.properties))
        if (!isStale(draft, name, update)) draft.write(name, value, timeMs);
      return;
    case '$set_once':
      for (const [name, value] of Object.entries(update.properties))
        if (!draft.has(name)) draft.write(name, value, timeMs);
      return;
    case '$unset':
      for (const name of update.names) if (!isStale(draft, name, update)) draft.write(name, undefined, timeMs);
      return;
    case '$add':
      for (const [name, by] of Object.entries(update.properties)) draft.write(name, sum(draft, name, by), timeMs);
      return;
    case '$append':
      for (const [name, value] of Object.entries(update.properties)) {
        draft.push(name, draft.list(name, '$append'), value);
        draft.stamp(name, timeMs);
      }
      return;
    case '$union':
      for (const [name, values] of Object.entries(update.properties)) {
        // Each new value once: duplicates already in the list stay, new ones are added in order, once.
        const list = draft.list(name, '$union');
        for (const value of values) {
          const key = valueKey(value);
          if (!list.has(key)) draft.push(name, list, value, key);
        }
        draft.stamp(name, timeMs);
      }
      return;
    case '$remove':
      for (const [name, value] of Object.entries(update.properties)) {
        // Removing from a missing list leaves it missing.
        if (!draft.has(name)) continue;
        draft.remove(name, draft.list(name, '$remove'), valueKey(value));
        draft.stamp(name, timeMs);
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
function sum(draft: ProfileDraft, name: string, by: number): PropertyValue {
  const current = draft.has(name) ? draft.value(name) : 0;
  if (JSON.isRawJSON(current) && /^-?\d+$/.test(current.rawJSON) && Number.isInteger(by)) {
    const exact = BigInt(current.rawJSON) + BigInt(by);
    return Number.isSafeInteger(Number(exact)) ? Number(exact) : JSON.rawJSON(exact.toString());
  }
  const value = numericValue(current);
  if (value === undefined) throw new Inapplicable(`$add: "${name}" holds ${describeValue(current)}, not a number`);
  if (!Number.isFinite(value + by)) throw new Inapplicable(`$add: "${name}" would leave the range of numbers`);
  return value + by;
}
