export { UsageModule } from './usage.module';
export { eventsDiskShareSql, eventsTableBytesSql, eventsUsageSql, storedEventsByProjectSql } from './usage-sql';
