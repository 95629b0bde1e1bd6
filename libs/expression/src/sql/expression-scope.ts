import { EVENT_PROPERTIES_COLUMN, EVENT_PROPERTY_COLUMNS, EVENT_TIME_COLUMN, PropertyColumn } from '../event-columns';

/**
 * Where a compiled expression reads its row from. Every string here is trusted SQL written by the
 * caller (a column, or `alias.column`), never user input. The in-memory twin is `ExpressionRow`.
 */
export interface ExpressionScope {
  /** The JSON object text that `properties["…"]` reads. */
  readonly propertiesJson: string;
  /** `properties["…"]` names kept in typed columns instead of the JSON text. */
  readonly propertyColumns?: Readonly<Record<string, PropertyColumn>>;
  /** The JSON object text that `user["…"]` reads; without it `user[…]` is refused. */
  readonly userPropertiesJson?: string;
  /** The `DateTime64` that `event["$time"]` reads; without it `event["$time"]` is refused. */
  readonly eventTime?: string;
}

export interface EventsScopeOptions {
  /** The events table's alias in the query, when its columns must be qualified (`e` reads `e.properties`). */
  readonly table?: string;
  /** The joined profile's JSON properties (e.g. `p.properties`), when the query joins profiles. */
  readonly userPropertiesJson?: string;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The events table (libs/clickhouse migration 0001). */
export function eventsScope(options: EventsScopeOptions = {}): ExpressionScope {
  const { table, userPropertiesJson } = options;
  if (table !== undefined && !IDENTIFIER.test(table)) throw new Error(`Not a table alias: ${table}`);
  const column = (name: string): string => (table === undefined ? name : `${table}.${name}`);
  const propertyColumns = Object.fromEntries(
    Object.entries(EVENT_PROPERTY_COLUMNS).map(([name, property]) => [
      name,
      { ...property, column: column(property.column) },
    ]),
  );
  return {
    propertiesJson: column(EVENT_PROPERTIES_COLUMN),
    propertyColumns,
    userPropertiesJson,
    eventTime: column(EVENT_TIME_COLUMN),
  };
}

/** The profile query: `properties["…"]` and `user["…"]` both read the profile's JSON properties. */
export function profilesScope(propertiesJson = 'properties'): ExpressionScope {
  return { propertiesJson, userPropertiesJson: propertiesJson };
}
