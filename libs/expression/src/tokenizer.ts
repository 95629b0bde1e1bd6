import { ExpressionError } from './expression-error';

export type Punctuator =
  '(' | ')' | '[' | ']' | ',' | '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '<=' | '>' | '>=';

interface Span {
  readonly start: number;
  readonly end: number;
}

/**
 * `word` covers identifiers and keywords alike: which words are keywords depends on where they
 * stand, which only the parser knows. A character that starts no token becomes an `invalid`
 * token, so the parser can say what it expected there.
 */
export type Token = Span &
  (
    | { readonly type: 'number'; readonly value: number }
    | { readonly type: 'string'; readonly value: string }
    | { readonly type: 'word'; readonly value: string }
    | { readonly type: 'symbol'; readonly value: Punctuator }
    | { readonly type: 'invalid'; readonly value: string }
    | { readonly type: 'end' }
  );

const WHITESPACE = /[ \t\n\r]+/y;
const NUMBER = /[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const WORD = /[A-Za-z_][A-Za-z0-9_]*/y;
const SYMBOL = /==|!=|<=|>=|[()[\],+\-*/%<>]/y;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** Splits an expression into tokens, ending with an `end` token. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let position = skipWhitespace(source, 0);
  while (position < source.length) {
    const token = readToken(source, position);
    tokens.push(token);
    position = skipWhitespace(source, token.end);
  }
  tokens.push({ type: 'end', start: source.length, end: source.length });
  return tokens;
}

function skipWhitespace(source: string, position: number): number {
  WHITESPACE.lastIndex = position;
  return WHITESPACE.test(source) ? WHITESPACE.lastIndex : position;
}

function matchAt(pattern: RegExp, source: string, position: number): string | undefined {
  pattern.lastIndex = position;
  return pattern.exec(source)?.[0];
}

function readToken(source: string, start: number): Token {
  const character = source[start];
  if (character === '"') return readString(source, start);
  const number = matchAt(NUMBER, source, start);
  if (number !== undefined)
    return { type: 'number', value: numberValue(number, start), start, end: start + number.length };
  const word = matchAt(WORD, source, start);
  if (word !== undefined) return { type: 'word', value: word, start, end: start + word.length };
  const symbol = matchAt(SYMBOL, source, start) as Punctuator | undefined;
  if (symbol !== undefined) return { type: 'symbol', value: symbol, start, end: start + symbol.length };
  if (character === '=') throw new ExpressionError(start, '"=="');
  if (character === '!') throw new ExpressionError(start, '"!="');
  const invalid = String.fromCodePoint(source.codePointAt(start)!);
  return { type: 'invalid', value: invalid, start, end: start + invalid.length };
}

function numberValue(text: string, start: number): number {
  const value = Number(text);
  if (!Number.isFinite(value))
    throw new ExpressionError(start, 'a number between -1.7976931348623157e308 and 1.7976931348623157e308');
  return value;
}

/** Double-quoted, with JSON's escapes. */
function readString(source: string, start: number): Token {
  let value = '';
  let position = start + 1;
  for (;;) {
    const end = source.indexOf('"', position);
    const escape = source.indexOf('\\', position);
    if (end < 0) throw new ExpressionError(source.length, "a closing '\"'");
    if (escape < 0 || end < escape) {
      value += source.slice(position, end);
      position = end + 1;
      break;
    }
    value += source.slice(position, escape) + readEscape(source, escape);
    position = escape + (source[escape + 1] === 'u' ? 6 : 2);
  }
  if (LONE_SURROGATE.test(value))
    throw new ExpressionError(start, 'a string of well-formed Unicode (no lone surrogate)');
  return { type: 'string', value, start, end: position };
}

function readEscape(source: string, backslash: number): string {
  const letter = source[backslash + 1];
  if (letter === 'u') {
    const hex = source.slice(backslash + 2, backslash + 6);
    if (/^[0-9A-Fa-f]{4}$/.test(hex)) return String.fromCharCode(parseInt(hex, 16));
  } else if (letter !== undefined && Object.hasOwn(ESCAPES, letter)) {
    return ESCAPES[letter];
  }
  throw new ExpressionError(backslash, 'an escape: \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX');
}
