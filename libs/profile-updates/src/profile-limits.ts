/** What one profile may hold (PROFILE_MAX_* settings; docs/profiles.md, "Limits"). */
export interface ProfileLimits {
  /** Properties per profile, `$created` and `$last_seen` included. */
  maxProperties: number;
  /** UTF-8 bytes of one property's value as JSON (a list or an object; strings are cut at 255 characters anyway). */
  maxPropertyBytes: number;
  /** UTF-8 bytes of the profile's properties as one JSON object. */
  maxProfileBytes: number;
}

/** The settings' defaults: Mixpanel's 2,000 properties and 256 KB per list or object property; 1 MiB a profile. */
export const DEFAULT_PROFILE_LIMITS: ProfileLimits = {
  maxProperties: 2000,
  maxPropertyBytes: 262_144,
  maxProfileBytes: 1_048_576,
};
