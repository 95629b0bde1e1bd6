import { Sql, trusted } from './sql';

export type QueryParameterType = 'String' | 'Float64' | 'Array(String)' | 'Array(Float64)';

/**
 * A value as the query's `query_params` carry it. Numbers travel as their shortest round-trip
 * decimal text (`String(n)`), which ClickHouse parses back exactly: clients serialise JavaScript
 * numbers differently (chDB refuses integers beyond 2^53), text they pass through alike.
 */
export type QueryParameterValue = string | readonly string[];

/** The bound parameters of one compiled expression, named `<prefix>_<n>`; equal values share one. */
export class QueryParameters {
  readonly values: Record<string, QueryParameterValue> = {};
  private readonly placeholders = new Map<string, Sql>();

  constructor(private readonly prefix: string) {}

  string(value: string): Sql {
    return this.bind(value, 'String');
  }

  number(value: number): Sql {
    return this.bind(String(value), 'Float64');
  }

  strings(values: readonly string[]): Sql {
    return this.bind(values, 'Array(String)');
  }

  numbers(values: readonly number[]): Sql {
    return this.bind(`[${values.map(String).join(',')}]`, 'Array(Float64)');
  }

  private bind(value: QueryParameterValue, type: QueryParameterType): Sql {
    const key = `${type}:${JSON.stringify(value)}`;
    let placeholder = this.placeholders.get(key);
    if (placeholder === undefined) {
      const name = `${this.prefix}_${this.placeholders.size}`;
      this.values[name] = value;
      placeholder = trusted(`{${name}:${type}}`);
      this.placeholders.set(key, placeholder);
    }
    return placeholder;
  }
}
