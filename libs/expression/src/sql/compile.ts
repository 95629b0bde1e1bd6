import { ExpressionError, ExpressionErrorCode } from '../expression-error';
import { MAX_COMPILED_SIZE } from '../limits';
import { parseExpression } from '../parser';
import { Expression } from '../syntax-tree';
import { Kind } from '../value';
import { ExpressionCompiler } from './expression-compiler';
import { ExpressionScope } from './expression-scope';
import { QueryParameters, QueryParameterValue } from './query-parameters';
import { choose, expandedSize, NULL, renderSql, Sql, sql, trusted } from './sql';
import { toStringValue } from './sql-operations';
import { is, isTrue, SqlValue } from './sql-value';

/** SQL plus the values of its `{name:Type}` placeholders, to merge into the query's own `query_params`. */
export interface CompiledSql {
  readonly sql: string;
  readonly params: Readonly<Record<string, QueryParameterValue>>;
}

export interface CompileOptions {
  /**
   * Names this expression's parameters (`<prefix>_0`, `<prefix>_1`, …) and aliases (`<prefix>_v0`, …),
   * so expressions compiled with different prefixes combine in one query. Letters and digits only.
   */
  readonly prefix: string;
}

const PREFIX = /^[A-Za-z][A-Za-z0-9]{0,31}$/;

/** A `where` (or `born_where`): a UInt8 condition, true exactly for the rows the expression keeps. */
export function compileWhere(
  expression: Expression | string,
  scope: ExpressionScope,
  options: CompileOptions,
): CompiledSql {
  return compile(expression, scope, options, isTrue);
}

/**
 * An `on`: the row's segment key as a Nullable(String), `string()` of the value; NULL where that
 * is undefined (undefined values, lists, objects), so callers can drop those rows.
 */
export function compileSegment(
  expression: Expression | string,
  scope: ExpressionScope,
  options: CompileOptions,
): CompiledSql {
  return compile(expression, scope, options, segmentKeySql);
}

// A key that is NULL on every row still has the key's type: a bare NULL is ClickHouse's Nothing, which
// callers' assumeNotNull() and GROUP BY refuse.
const NO_SEGMENT = trusted('CAST(NULL AS Nullable(String))');

function segmentKeySql(value: SqlValue): Sql {
  const text = toStringValue(value);
  const key = choose([[is(text, Kind.String), text.string ?? NULL]], NULL);
  return key === NULL ? NO_SEGMENT : key;
}

function compile(
  expression: Expression | string,
  scope: ExpressionScope,
  options: CompileOptions,
  finish: (value: SqlValue) => Sql,
): CompiledSql {
  if (!PREFIX.test(options.prefix)) throw new Error(`Not a parameter prefix (letters and digits): ${options.prefix}`);
  const tree = typeof expression === 'string' ? parseExpression(expression) : expression;
  const parameters = new QueryParameters(options.prefix);
  // Parenthesised, so it can stand beside the caller's own conditions.
  const compiler = new ExpressionCompiler(scope, parameters);
  const root = sql`(${finish(compiler.compile(tree))})`;
  if (expandedSize(root) > MAX_COMPILED_SIZE) {
    throw new ExpressionError(
      tree.start,
      `a simpler expression (this one compiles to over ${MAX_COMPILED_SIZE} SQL elements)`,
      ExpressionErrorCode.TooComplex,
    );
  }
  const text = renderSql(root, `${options.prefix}_v`);
  // A parameter bound for a branch that static kinds then dropped is not sent.
  const bound = { ...compiler.lookupParams, ...parameters.values };
  const params = Object.fromEntries(Object.entries(bound).filter(([name]) => text.includes(`{${name}:`)));
  return { sql: text, params };
}
