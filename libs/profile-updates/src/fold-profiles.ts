import { ProfileState } from './apply-profile-update';

/**
 * A person's one profile once profiles stored under ids that joined its cluster are folded in
 * (docs/identity.md, "Profiles"): the canonical profile's own properties win; each property it
 * lacks comes from the first folded profile that has it (callers pass the oldest first), with its
 * write time. Without a canonical profile the folded ones make it. Pure, and its result does not
 * depend on how often it is applied to the same profiles.
 */
export function foldProfileStates(canonical: ProfileState | undefined, folded: ProfileState[]): ProfileState {
  // Later layers win; `fromEntries` defines keys (a `__proto__` property stays a property).
  const layers = [...folded].reverse().concat(canonical ? [canonical] : []);
  return {
    properties: Object.fromEntries(layers.flatMap((layer) => Object.entries(layer.properties))),
    stamps: Object.fromEntries(layers.flatMap((layer) => Object.entries(layer.stamps))),
  };
}
