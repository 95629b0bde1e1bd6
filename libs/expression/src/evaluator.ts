import { ExpressionRow } from './expression-row';
import {
  add,
  arithmetic,
  ceil,
  compare,
  contains,
  equals,
  floor,
  isDefined,
  isTrue,
  negate,
  round,
  toBoolean,
  toDateTime,
  toNumber,
  toStringValue,
} from './semantics';
import { BinaryOperator, Expression, FunctionName } from './syntax-tree';
import { Value } from './value';

const FUNCTIONS: Readonly<Record<FunctionName, (value: Value) => Value>> = {
  floor,
  round,
  ceil,
  boolean: toBoolean,
  number: toNumber,
  string: toStringValue,
  defined: isDefined,
  datetime: toDateTime,
};

/** The reference semantics: what an expression is worth on one row. */
export function evaluate(expression: Expression, row: ExpressionRow): Value {
  switch (expression.type) {
    case 'literal':
      return expression.value;
    case 'list':
      return expression.items.map((item) => evaluate(item, row));
    case 'property':
      return expression.source === 'user' ? row.userProperty(expression.path) : row.property(expression.path);
    case 'event-time':
      return row.eventTime;
    case 'unary': {
      const operand = evaluate(expression.operand, row);
      return expression.operator === 'not' ? !isTrue(operand) : negate(operand);
    }
    case 'binary':
      return applyBinary(expression.operator, evaluate(expression.left, row), evaluate(expression.right, row));
    case 'call':
      return FUNCTIONS[expression.name](evaluate(expression.argument, row));
  }
}

function applyBinary(operator: BinaryOperator, left: Value, right: Value): Value {
  switch (operator) {
    case 'and':
      return isTrue(left) && isTrue(right);
    case 'or':
      return isTrue(left) || isTrue(right);
    case '==':
      return equals(left, right);
    case '!=':
      return !equals(left, right);
    case '<':
    case '<=':
    case '>':
    case '>=':
      return compare(operator, left, right);
    case 'in':
      return contains(left, right);
    case '+':
      return add(left, right);
    default:
      return arithmetic(operator, left, right);
  }
}

/** A `where` keeps a row only when the expression is `true` there. */
export function keepsRow(expression: Expression, row: ExpressionRow): boolean {
  return isTrue(evaluate(expression, row));
}

/** The `on` segment a row falls in: `string()` of the value; undefined drops the row. */
export function segmentKey(expression: Expression, row: ExpressionRow): string | undefined {
  return toStringValue(evaluate(expression, row));
}
