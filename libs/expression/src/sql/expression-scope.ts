import { EVENT_PROPERTIES_COLUMN, EVENT_PROPERTY_COLUMNS, EVENT_TIME_COLUMN, PropertyColumn } from '../event-columns';
import { QueryParameterValue } from './query-parameters';

/**
 * A lookup table mapped to a property: `rows` is trusted SQL (a SELECT, written by the table's owner)
 * of its current rows as `key String` and `row String`, the row a JSON object of the table's other
 * columns; `params` are the values of its own named placeholders.
 */
export interface LookupSource {
  readonly rows: string;
  readonly params: Readonly<Record<string, QueryParameterValue>>;
}

/** The lookup tables mapped to properties, by the mapped property's name, for each source. */
export interface ExpressionLookups {
  /** Tables mapped to `properties["…"]` (event properties in event queries). */
  readonly properties?: Readonly<Record<string, LookupSource>>;
  /** Tables mapped to `user["…"]` (profile properties). */
  readonly user?: Readonly<Record<string, LookupSource>>;
}

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
  /** `properties["p"]["c"]` / `user["p"]["c"]` read column `c` of the table mapped to `p`. */
  readonly lookups?: ExpressionLookups;
}

export interface EventsScopeOptions {
  /** The events table's alias in the query, when its columns must be qualified (`e` reads `e.properties`). */
  readonly table?: string;
  /** The joined profile's JSON properties (e.g. `p.properties`), when the query joins profiles. */
  readonly userPropertiesJson?: string;
  /** The lookup tables mapped to event (`properties`) and profile (`user`) properties. */
  readonly lookups?: ExpressionLookups;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The events table (libs/clickhouse migration 0001). */
export function eventsScope(options: EventsScopeOptions = {}): ExpressionScope {
  const { table, userPropertiesJson, lookups } = options;
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
    lookups,
  };
}

/**
 * The profile query: `properties["…"]` and `user["…"]` both read the profile's JSON properties, and
 * both see the lookup tables mapped to profile properties (`profileLookups`).
 */
export function profilesScope(
  propertiesJson = 'properties',
  profileLookups?: Readonly<Record<string, LookupSource>>,
): ExpressionScope {
  const lookups = profileLookups && { properties: profileLookups, user: profileLookups };
  return { propertiesJson, userPropertiesJson: propertiesJson, lookups };
}
