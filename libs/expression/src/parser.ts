import { ExpressionError, ExpressionErrorCode } from './expression-error';
import { checkSize } from './expression-size';
import {
  MAX_EXPRESSION_LENGTH,
  MAX_LIST_ITEMS,
  MAX_NAME_LENGTH,
  MAX_NESTING_DEPTH,
  MAX_PROPERTY_PATH_LENGTH,
} from './limits';
import {
  BinaryOperator,
  Expression,
  FUNCTION_NAMES,
  FunctionName,
  ListLiteral,
  PropertyReference,
  PropertySource,
  readsRow,
} from './syntax-tree';
import { Punctuator, Token, tokenize } from './tokenizer';

/** Binding powers, loosest first; a prefix `not` binds between `and` and the comparisons. */
const NOT_POWER = 3;
const UNARY_MINUS_POWER = 7;
const BINARY_POWERS: Readonly<Record<BinaryOperator, number>> = {
  or: 1,
  and: 2,
  '==': 4,
  '!=': 4,
  '<': 4,
  '<=': 4,
  '>': 4,
  '>=': 4,
  in: 4,
  '+': 5,
  '-': 5,
  '*': 6,
  '/': 6,
  '%': 6,
};

const LITERAL_WORDS: Readonly<Record<string, null | boolean>> = { true: true, false: false, null: null };

/** Parses a `where` / `on` expression into its syntax tree, or throws an {@link ExpressionError}. */
export function parseExpression(source: string): Expression {
  if (source.length > MAX_EXPRESSION_LENGTH) {
    throw new ExpressionError(
      MAX_EXPRESSION_LENGTH,
      `at most ${MAX_EXPRESSION_LENGTH} characters`,
      ExpressionErrorCode.TooComplex,
    );
  }
  const expression = new Parser(tokenize(source)).parseAll();
  checkSize(expression);
  return expression;
}

/** A Pratt parser: each operator's binding power decides how far its right operand reaches. */
class Parser {
  private index = 0;
  private depth = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  parseAll(): Expression {
    const expression = this.expression(0);
    if (this.peek().type !== 'end') throw this.unexpected('an operator or the end of the expression');
    return expression;
  }

  private expression(minimumPower: number): Expression {
    this.enterNesting();
    let left = this.operand(minimumPower);
    for (;;) {
      const operator = binaryOperatorOf(this.peek());
      if (operator === undefined || BINARY_POWERS[operator] <= minimumPower) break;
      this.index++;
      const right = this.expression(BINARY_POWERS[operator]);
      left = { type: 'binary', operator, left, right, start: left.start, end: right.end };
    }
    this.depth--;
    return left;
  }

  private operand(minimumPower: number): Expression {
    const token = this.next();
    const { start, end } = token;
    switch (token.type) {
      case 'number':
      case 'string':
        return { type: 'literal', value: token.value, start, end };
      case 'symbol':
        if (token.value === '-') return this.unary('-', start, UNARY_MINUS_POWER);
        if (token.value === '(') return this.parenthesised(start);
        if (token.value === '[') return this.list(start);
        break;
      case 'word':
        return this.word(token.value, start, end, minimumPower);
    }
    throw new ExpressionError(start, 'an expression');
  }

  private word(word: string, start: number, end: number, minimumPower: number): Expression {
    if (Object.hasOwn(LITERAL_WORDS, word)) return { type: 'literal', value: LITERAL_WORDS[word], start, end };
    if (word === 'not') {
      // `a == not b` reads ambiguously; Python refuses it too.
      if (minimumPower > NOT_POWER) throw new ExpressionError(start, 'an operand ("not …" needs parentheses here)');
      return this.unary('not', start, NOT_POWER);
    }
    if (word === 'properties' || word === 'user') return this.property(word, start);
    if (word === 'event') return this.eventTime(start);
    if ((FUNCTION_NAMES as readonly string[]).includes(word)) return this.call(word as FunctionName, start);
    throw new ExpressionError(start, 'an expression');
  }

  private unary(operator: '-' | 'not', start: number, power: number): Expression {
    const operand = this.expression(power);
    return { type: 'unary', operator, operand, start, end: operand.end };
  }

  /** The span of a parenthesised expression takes in its parentheses. */
  private parenthesised(start: number): Expression {
    const inner = this.expression(0);
    this.expectSymbol(')');
    return { ...inner, start, end: this.tokens[this.index - 1].end };
  }

  private list(start: number): ListLiteral {
    const items: Expression[] = [];
    if (!this.acceptSymbol(']')) {
      do {
        const item = this.expression(0);
        if (readsRow(item))
          throw new ExpressionError(item.start, 'a constant list item (list items cannot read properties)');
        if (items.length === MAX_LIST_ITEMS) {
          throw new ExpressionError(item.start, `at most ${MAX_LIST_ITEMS} list items`, ExpressionErrorCode.TooComplex);
        }
        items.push(item);
      } while (this.acceptSymbol(','));
      this.expectSymbol(']', '"," or "]"');
    }
    return { type: 'list', items, start, end: this.tokens[this.index - 1].end };
  }

  private property(source: PropertySource, start: number): PropertyReference {
    const path = [this.propertyKey()];
    while (this.peekSymbol('[')) {
      if (path.length === MAX_PROPERTY_PATH_LENGTH) {
        throw new ExpressionError(
          this.peek().start,
          `at most ${MAX_PROPERTY_PATH_LENGTH} keys in a property path`,
          ExpressionErrorCode.TooComplex,
        );
      }
      path.push(this.propertyKey());
    }
    return { type: 'property', source, path, start, end: this.tokens[this.index - 1].end };
  }

  private propertyKey(): string {
    this.expectSymbol('[');
    const key = this.next();
    if (key.type !== 'string') throw new ExpressionError(key.start, 'a property name in double quotes');
    if (key.value.length > MAX_NAME_LENGTH) {
      throw new ExpressionError(
        key.start,
        `a property name of at most ${MAX_NAME_LENGTH} characters`,
        ExpressionErrorCode.TooComplex,
      );
    }
    this.expectSymbol(']');
    return key.value;
  }

  private eventTime(start: number): Expression {
    this.expectSymbol('[');
    const key = this.next();
    if (key.type !== 'string' || key.value !== '$time') throw new ExpressionError(key.start, '"$time"');
    this.expectSymbol(']');
    return { type: 'event-time', start, end: this.tokens[this.index - 1].end };
  }

  private call(name: FunctionName, start: number): Expression {
    this.expectSymbol('(');
    const argument = this.expression(0);
    this.expectSymbol(')');
    return { type: 'call', name, argument, start, end: this.tokens[this.index - 1].end };
  }

  private enterNesting(): void {
    if (++this.depth > MAX_NESTING_DEPTH) {
      throw new ExpressionError(
        this.peek().start,
        `at most ${MAX_NESTING_DEPTH} levels of nesting`,
        ExpressionErrorCode.TooComplex,
      );
    }
  }

  private peek(): Token {
    return this.tokens[this.index];
  }

  private next(): Token {
    const token = this.tokens[this.index];
    if (token.type !== 'end') this.index++;
    return token;
  }

  private peekSymbol(symbol: Punctuator): boolean {
    const token = this.peek();
    return token.type === 'symbol' && token.value === symbol;
  }

  private acceptSymbol(symbol: Punctuator): boolean {
    if (!this.peekSymbol(symbol)) return false;
    this.index++;
    return true;
  }

  private expectSymbol(symbol: Punctuator, expected = `"${symbol}"`): void {
    if (!this.acceptSymbol(symbol)) throw this.unexpected(expected);
  }

  private unexpected(expected: string): ExpressionError {
    return new ExpressionError(this.peek().start, expected);
  }
}

function binaryOperatorOf(token: Token): BinaryOperator | undefined {
  if (token.type !== 'symbol' && token.type !== 'word') return undefined;
  return Object.hasOwn(BINARY_POWERS, token.value) ? (token.value as BinaryOperator) : undefined;
}
