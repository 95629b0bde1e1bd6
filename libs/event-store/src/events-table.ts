/** The events table's name: the event store (this lib) creates it, writes it, reads it for others and deletes from it. */
export const EVENTS_TABLE = 'events';
/** The events' stored `identityKeySql(project_id, distinct_id)` (migration 5): the key readers group a person's events by. */
export const USER_KEY_COLUMN = 'user_key';
