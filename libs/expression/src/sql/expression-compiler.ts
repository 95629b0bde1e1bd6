import { evaluate } from '../evaluator';
import { ExpressionError, ExpressionErrorCode } from '../expression-error';
import { ExpressionRow } from '../expression-row';
import { EventTime, Expression, PropertyReference, readsRow } from '../syntax-tree';
import { DateTime, Kind, kindOf, Value } from '../value';
import { ExpressionScope } from './expression-scope';
import { QueryParameters, QueryParameterValue } from './query-parameters';
import { FALSE, joinSql, shared, Sql, sql, trusted, TRUE } from './sql';
import { binary, FUNCTIONS, logicalNot, negate, toStringValue } from './sql-operations';
import { booleanValue, is, SqlList, SqlValue } from './sql-value';
import { LookupSource } from './expression-scope';

/** Constants are folded by the reference evaluator itself, so they cannot disagree with it. */
const CONSTANT_ROW: ExpressionRow = {
  property: () => readByConstant(),
  userProperty: () => readByConstant(),
  get eventTime(): DateTime {
    return readByConstant();
  },
};

function readByConstant(): never {
  throw new Error('A constant expression read the row');
}

/** How the raw JSON text of a value (as ClickHouse re-serialises it, without whitespace) shows its kind. */
const JSON_KIND_TESTS: Readonly<Partial<Record<Kind, (raw: Sql) => Sql>>> = {
  [Kind.Undefined]: (raw) => sql`(${raw} = '')`,
  [Kind.Null]: (raw) => sql`(${raw} = 'null')`,
  [Kind.Boolean]: (raw) => sql`(${raw} IN ('true', 'false'))`,
  [Kind.Number]: (raw) => sql`match(${raw}, '^-?[0-9]')`,
  [Kind.String]: (raw) => sql`startsWith(${raw}, '"')`,
  [Kind.List]: (raw) => sql`startsWith(${raw}, '[')`,
  [Kind.Object]: (raw) => sql`startsWith(${raw}, '{')`,
};

function certain(kind: Kind, payload: Partial<Omit<SqlValue, 'when'>>): SqlValue {
  return { when: { [kind]: TRUE }, ...payload };
}

/** Compiles one expression's syntax tree to SQL values over one scope. */
export class ExpressionCompiler {
  /** A property read twice is extracted once. */
  private readonly properties = new Map<string, SqlValue>();
  /** The placeholders' values of the lookup tables this expression read. */
  readonly lookupParams: Record<string, QueryParameterValue> = {};

  constructor(
    private readonly scope: ExpressionScope,
    private readonly parameters: QueryParameters,
  ) {}

  compile(expression: Expression): SqlValue {
    if (!readsRow(expression)) return this.constant(evaluate(expression, CONSTANT_ROW));
    switch (expression.type) {
      case 'property':
        return this.property(expression);
      case 'event-time':
        return this.eventTime(expression);
      case 'unary': {
        const operand = this.compile(expression.operand);
        return expression.operator === 'not' ? logicalNot(operand) : negate(operand);
      }
      case 'binary':
        return binary(expression.operator, this.compile(expression.left), this.compile(expression.right));
      case 'call':
        return FUNCTIONS[expression.name](this.compile(expression.argument));
      case 'literal':
      case 'list':
        throw new Error(`A ${expression.type} reads no row, so it was folded above`);
    }
  }

  private constant(value: Value): SqlValue {
    const kind = kindOf(value);
    switch (kind) {
      case Kind.Undefined:
      case Kind.Null:
        return certain(kind, {});
      case Kind.Boolean:
        return booleanValue(value ? TRUE : FALSE);
      case Kind.Number:
        return certain(kind, { number: this.parameters.number(value as number) });
      case Kind.String:
        return certain(kind, { string: this.parameters.string(value as string) });
      case Kind.DateTime:
        return certain(kind, { dateTime: this.parameters.number((value as DateTime).ms) });
      case Kind.List:
        return certain(kind, { list: this.constantList(value as readonly Value[]) });
      case Kind.Object:
        throw new Error('Constant expressions cannot make objects');
    }
  }

  private constantList(items: readonly Value[]): SqlList {
    const ofKind = <T extends Value>(kind: Kind) => items.filter((item) => kindOf(item) === kind) as T[];
    const strings = ofKind<string>(Kind.String);
    const numbers = ofKind<number>(Kind.Number);
    const dateTimes = ofKind<DateTime>(Kind.DateTime).map((dateTime) => dateTime.ms);
    const holds = (item: Value) => (items.includes(item) ? TRUE : FALSE);
    return {
      strings: strings.length > 0 ? this.parameters.strings(strings) : undefined,
      numbers: numbers.length > 0 ? this.parameters.numbers(numbers) : undefined,
      dateTimes: dateTimes.length > 0 ? this.parameters.numbers(dateTimes) : undefined,
      hasNull: holds(null),
      hasTrue: holds(true),
      hasFalse: holds(false),
      hasUndefined: holds(undefined),
    };
  }

  private property(reference: PropertyReference): SqlValue {
    const key = JSON.stringify([reference.source, ...reference.path]);
    let value = this.properties.get(key);
    if (value === undefined) {
      value = this.readProperty(reference);
      this.properties.set(key, value);
    }
    return value;
  }

  private readProperty(reference: PropertyReference): SqlValue {
    const { source, path, start } = reference;
    const lookup = path.length > 1 ? this.lookupOf(reference) : undefined;
    if (lookup !== undefined) return this.lookedUp(lookup, reference);
    if (source === 'user') {
      if (this.scope.userPropertiesJson === undefined) {
        throw new ExpressionError(
          start,
          'an event property (no user profile is joined in this query)',
          ExpressionErrorCode.Unavailable,
        );
      }
      return this.jsonProperty(trusted(this.scope.userPropertiesJson), path);
    }
    const column =
      this.scope.propertyColumns && Object.hasOwn(this.scope.propertyColumns, path[0])
        ? this.scope.propertyColumns[path[0]]
        : undefined;
    if (column === undefined) return this.jsonProperty(trusted(this.scope.propertiesJson), path);
    if (path.length > 1) return certain(Kind.Undefined, {});
    if (column.type === 'string') return certain(Kind.String, { string: trusted(column.column) });
    if (column.type === 'datetime') return this.dateTimeColumn(column.column);
    return certain(Kind.Number, {
      number: shared(sql`floor(toUnixTimestamp64Milli(${trusted(column.column)}) / 1000)`),
    });
  }

  /**
   * One parse of the whole JSON per property, for the raw JSON text of the value; its first
   * character tells the kind, and the payloads parse only that small text. Numbers are read as
   * decimal text: ClickHouse re-serialises a large double as integer digits, which its JSON
   * parser then refuses as beyond 64 bits.
   */
  private jsonProperty(json: Sql, path: readonly string[]): SqlValue {
    const location = joinSql([json, ...path.map((key) => this.parameters.string(key))], ', ');
    const raw = path.length === 0 ? json : shared(sql`JSONExtractRaw(${location})`);
    const when = Object.fromEntries(Object.entries(JSON_KIND_TESTS).map(([kind, test]) => [kind, shared(test(raw))]));
    return {
      when,
      boolean: sql`(${raw} = 'true')`,
      number: shared(sql`toFloat64OrZero(${raw})`),
      string: shared(sql`JSONExtractString(${raw})`),
      list: jsonList(location),
    };
  }

  private lookupOf({ source, path }: PropertyReference): LookupSource | undefined {
    const tables = this.scope.lookups?.[source];
    return tables && Object.hasOwn(tables, path[0]) ? tables[path[0]] : undefined;
  }

  /**
   * `properties["p"]["c"]…`, `p` mapped to a lookup table: the row whose key is `string()` of the
   * property, column `c` (then the path's further keys into that value). The table's keys and that
   * column's raw JSON values are read once per query as two arrays (scalar subqueries, constants to
   * the engine), and `transform` maps each row's key through a hash table built from them; a key
   * without a row, or a row without that column, gives '' (undefined).
   */
  private lookedUp(lookup: LookupSource, reference: PropertyReference): SqlValue {
    for (const [name, value] of Object.entries(lookup.params)) this.lookupParams[name] = value;
    const [property, column, ...rest] = reference.path;
    const key = toStringValue(this.property({ ...reference, path: [property] }));
    const keyText = key.string === undefined ? trusted("''") : sql`if(${is(key, Kind.String)}, ${key.string}, '')`;
    const rows = trusted(lookup.rows);
    const keys = sql`(SELECT groupArray(key) FROM (${rows}))`;
    const values = sql`(SELECT groupArray(JSONExtractRaw(row, ${this.parameters.string(column)})) FROM (${rows}))`;
    const raw = shared(sql`transform(${keyText}, ${keys}, ${values}, '')`);
    return this.jsonProperty(raw, rest);
  }

  private eventTime({ start }: EventTime): SqlValue {
    if (this.scope.eventTime === undefined) {
      throw new ExpressionError(
        start,
        'a profile property (event["$time"] is only available in event queries)',
        ExpressionErrorCode.Unavailable,
      );
    }
    return this.dateTimeColumn(this.scope.eventTime);
  }

  private dateTimeColumn(column: string): SqlValue {
    return certain(Kind.DateTime, {
      dateTime: shared(sql`toFloat64(toUnixTimestamp64Milli(${trusted(column)}))`),
    });
  }
}

/**
 * A JSON array's items by kind, read from the stored document (the re-serialised raw text may hold
 * integer digits ClickHouse cannot parse back). The lambdas read only their own argument: ClickHouse
 * lambdas cannot see aliases.
 */
function jsonList(location: Sql): SqlList {
  const items = shared(sql`JSONExtractArrayRaw(${location})`);
  return {
    strings: sql`arrayMap(item -> JSONExtractString(item), arrayFilter(item -> startsWith(item, '"'), ${items}))`,
    numbers: sql`arrayMap(item -> toFloat64OrZero(item), arrayFilter(item -> ${JSON_KIND_TESTS[Kind.Number]!(trusted('item'))}, ${items}))`,
    hasNull: sql`has(${items}, 'null')`,
    hasTrue: sql`has(${items}, 'true')`,
    hasFalse: sql`has(${items}, 'false')`,
    hasUndefined: FALSE,
  };
}
