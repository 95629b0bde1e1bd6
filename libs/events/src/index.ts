export { EVENT_LIMITS, FORBIDDEN_IDS, RESERVED_PROPERTIES } from './event-limits';
export { encodeEventRow, EventRow, EventRowInput, formatEpochSeconds, serializeProperties, utf8SizeBound, withProcessedAt } from './event-row';
export { EARLIEST_EVENT_TIME_MS, resolveEventTime, TimePolicy, toEpochMs } from './event-time';
export { parseJson } from './parse-json';
export { partitionFor } from './partition';
export { EventContext, EventDictionary, EventOutcome, validateEvent } from './validate-event';
export { distinctLinks, IDENTITY_MODES, IdentityLink, identityLinkOf, IdentityMode, LinkSource, ORIGINAL_LINK_KINDS, OriginalLinkKind } from './identity-link';
export { IdentityClusters, IdentityMember } from './identity-clusters';
export { isAnonymousId, LINK_REFUSALS, LinkOutcome, LinkRefusal, LinkRefusalRule, MAX_CLUSTER_IDS } from './identity-rules';
