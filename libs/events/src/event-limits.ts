/** The real API's per-event limits ("fewer than" means strictly less). */
export const EVENT_LIMITS = {
  maxEventBytes: 1_000_000,
  maxProperties: 254,
  maxNestingDepth: 3,
  maxObjectKeys: 254,
  maxListItems: 254,
  /** Longer strings are truncated, not refused. */
  maxStringLength: 255,
  maxEventNameLength: 255,
  maxInsertIdLength: 36,
  maxEventsPerRequest: 2000,
} as const;

/** Ids the real API refuses as distinct_id or $insert_id: SDK placeholders that would merge strangers. */
export const FORBIDDEN_IDS = new Set([
  '00000000-0000-0000-0000-000000000000',
  'anon',
  'anonymous',
  'nil',
  'none',
  'null',
  'n/a',
  'na',
  'undefined',
  'unknown',
  '<nil>',
  '0',
  '-1',
  'true',
  'false',
  '[]',
  '{}',
]);

export const INSERT_ID_PATTERN = /^[A-Za-z0-9-]{1,36}$/;

/** Properties that are columns of the stored event, not custom properties. */
export const RESERVED_PROPERTIES = new Set(['time', 'distinct_id', '$insert_id', 'token']);
