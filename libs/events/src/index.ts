export { EVENT_LIMITS, FORBIDDEN_IDS, RESERVED_PROPERTIES } from './event-limits';
export {
  encodeEventRow,
  EventRow,
  formatEpochSeconds,
  serializeProperties,
  utf8SizeBound,
  withProcessedAt,
} from './event-row';
export { toEpochMs } from './event-time';
export { parseJson } from './parse-json';
export { partitionFor } from './partition';
export { EventContext, EventDictionary, validateEvent } from './validate-event';
export {
  distinctLinks,
  IDENTITY_MODES,
  IdentityLink,
  IdentityMode,
  ORIGINAL_LINK_KINDS,
  OriginalLinkKind,
} from './identity-link';
export { IdentityClusters, IdentityMember } from './identity-clusters';
export { LINK_REFUSALS, LinkRefusal, LinkRefusalRule, MAX_CLUSTER_IDS } from './identity-rules';
