/** The ClickHouse table of every lookup table's rows (migration 7), owned by this lib. */
export const LOOKUP_TABLE_ROWS_TABLE = 'lookup_table_rows';
