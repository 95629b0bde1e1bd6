export { applyToDraft, ProfileState } from './apply-profile-update';
export { foldProfileStates } from './fold-profiles';
export { ProfileDraft } from './profile-draft';
export { ProfileLimits } from './profile-limits';
export {
  decodeProfileUpdate,
  identityKey,
  ProfileIdentity,
  ProfileKey,
  ProfileUpdate,
  Properties,
  USER_PROFILES,
} from './profile-update';
export { isPlainObject } from './property-values';
export {
  LocationHint,
  ProfileScope,
  recordIdentity,
  RecordOutcome,
  validateProfileRecord,
} from './validate-profile-record';
