export { EventStoreModule } from './event-store.module';
export { EVENTS_TABLE, USER_KEY_COLUMN } from './events-table';
export { EventsRepository } from './events.repository';
export { exportedEventLineSql } from './exported-line';
export { EVENT_STORE_MIGRATIONS } from './migrations';
export { countEventsSql, deleteEventsSql, erasedEventsSql, retrievedEventsSql } from './events-deletion-sql';
export { EventsDeletionRepository } from './events-deletion.repository';
export { EventsRetentionRepository } from './events-retention.repository';
export {
  mergedIdExistsSql,
  resolvedEventsSql,
  resolvedUserKeysSql,
  storedEventsSql,
  userEventsSql,
} from './resolved-events-sql';
