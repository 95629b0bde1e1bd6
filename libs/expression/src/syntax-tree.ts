/** The syntax tree of an expression. Every node carries its span in the source text (`start` inclusive, `end` exclusive). */

export type BinaryOperator = 'or' | 'and' | '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | '+' | '-' | '*' | '/' | '%';
export type UnaryOperator = '-' | 'not';

export const FUNCTION_NAMES = ['floor', 'round', 'ceil', 'boolean', 'number', 'string', 'defined', 'datetime'] as const;
export type FunctionName = (typeof FUNCTION_NAMES)[number];

/** `properties["…"]` (the event's, or the profile's in a profile query) or `user["…"]` (the joined profile's). */
export type PropertySource = 'properties' | 'user';

interface Span {
  readonly start: number;
  readonly end: number;
}

export interface Literal extends Span {
  readonly type: 'literal';
  readonly value: null | boolean | number | string;
}

/** `[…]`; its items are constants (they read nothing from the row). */
export interface ListLiteral extends Span {
  readonly type: 'list';
  readonly items: readonly Expression[];
}

/** `properties["a"]["b"]`: a path of keys into the JSON properties. */
export interface PropertyReference extends Span {
  readonly type: 'property';
  readonly source: PropertySource;
  readonly path: readonly string[];
}

/** `event["$time"]`. */
export interface EventTime extends Span {
  readonly type: 'event-time';
}

export interface UnaryOperation extends Span {
  readonly type: 'unary';
  readonly operator: UnaryOperator;
  readonly operand: Expression;
}

export interface BinaryOperation extends Span {
  readonly type: 'binary';
  readonly operator: BinaryOperator;
  readonly left: Expression;
  readonly right: Expression;
}

export interface FunctionCall extends Span {
  readonly type: 'call';
  readonly name: FunctionName;
  readonly argument: Expression;
}

export type Expression =
  Literal | ListLiteral | PropertyReference | EventTime | UnaryOperation | BinaryOperation | FunctionCall;

export function childrenOf(expression: Expression): readonly Expression[] {
  switch (expression.type) {
    case 'list':
      return expression.items;
    case 'unary':
      return [expression.operand];
    case 'binary':
      return [expression.left, expression.right];
    case 'call':
      return [expression.argument];
    default:
      return [];
  }
}

/** The expression with each child replaced by `map(child)`; a node without children as it is. */
export function mapChildren(expression: Expression, map: (child: Expression) => Expression): Expression {
  switch (expression.type) {
    case 'list':
      return { ...expression, items: expression.items.map(map) };
    case 'unary':
      return { ...expression, operand: map(expression.operand) };
    case 'binary':
      return { ...expression, left: map(expression.left), right: map(expression.right) };
    case 'call':
      return { ...expression, argument: map(expression.argument) };
    default:
      return expression;
  }
}

/** Whether the value depends on the row; one that does not is a constant. */
export function readsRow(expression: Expression): boolean {
  if (expression.type === 'property' || expression.type === 'event-time') return true;
  return childrenOf(expression).some(readsRow);
}

/** The text of an expression with every operation parenthesised; it parses back to the same tree. */
export function printExpression(expression: Expression): string {
  switch (expression.type) {
    case 'literal':
      return typeof expression.value === 'string' ? JSON.stringify(expression.value) : String(expression.value);
    case 'list':
      return `[${expression.items.map(printExpression).join(', ')}]`;
    case 'property':
      return expression.source + expression.path.map((key) => `[${JSON.stringify(key)}]`).join('');
    case 'event-time':
      return 'event["$time"]';
    case 'unary':
      return `(${expression.operator === 'not' ? 'not ' : '-'}${printExpression(expression.operand)})`;
    case 'binary':
      return `(${printExpression(expression.left)} ${expression.operator} ${printExpression(expression.right)})`;
    case 'call':
      return `${expression.name}(${printExpression(expression.argument)})`;
  }
}
