export { LookupTablesModule, LookupTablesReaderModule } from './lookup-tables.module';
export { LookupTablesReader, NO_LOOKUPS, ReportLookups } from './report-lookups';
export { LOOKUP_TABLE_MIGRATIONS } from './migrations';
export { lookupSourceSql } from './lookup-rows-sql';
export { LOOKUP_TABLE_ROWS_TABLE } from './lookup-tables.tables';
