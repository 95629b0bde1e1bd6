import { Sql, trusted } from './sql';

export type QueryParameterType = 'String' | 'Float64' | 'Array(String)' | 'Array(Float64)';
export type QueryParameterValue = string | number | readonly string[] | readonly number[];

/** The bound parameters of one compiled expression, named `<prefix>_<n>`; equal values share one. */
export class QueryParameters {
  readonly values: Record<string, QueryParameterValue> = {};
  private readonly placeholders = new Map<string, Sql>();

  constructor(private readonly prefix: string) {}

  bind(value: QueryParameterValue, type: QueryParameterType): Sql {
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
