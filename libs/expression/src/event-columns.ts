/** How a property kept in a column of its own reads in expressions. */
export type PropertyColumnType =
  /** A String column, read as a string. */
  | 'string'
  /** A DateTime64 column, read as whole unix seconds (the number raw export prints). */
  | 'unix-seconds'
  /** A DateTime64 column, read as a datetime to the millisecond (as `event["$time"]`). */
  | 'datetime';

/** The events table's JSON text of custom properties and its time column. */
export const EVENT_PROPERTIES_COLUMN = 'properties';
export const EVENT_TIME_COLUMN = 'time';

export interface PropertyColumn {
  readonly column: string;
  readonly type: PropertyColumnType;
}

/**
 * Event properties the events table keeps in columns of their own rather than in its JSON
 * `properties` text (libs/clickhouse migration 0001). Both backends read them from here.
 */
export const EVENT_PROPERTY_COLUMNS: Readonly<Record<string, PropertyColumn>> = {
  time: { column: EVENT_TIME_COLUMN, type: 'unix-seconds' },
  // Mixpanel's name for the event's time in expressions: the ETL connectors filter the raw export
  // by `properties["$time"] >= datetime(…)`.
  $time: { column: EVENT_TIME_COLUMN, type: 'datetime' },
  distinct_id: { column: 'distinct_id', type: 'string' },
  $insert_id: { column: 'insert_id', type: 'string' },
};

export function eventPropertyColumn(name: string): PropertyColumn | undefined {
  return Object.hasOwn(EVENT_PROPERTY_COLUMNS, name) ? EVENT_PROPERTY_COLUMNS[name] : undefined;
}
