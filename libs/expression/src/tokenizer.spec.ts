import { ExpressionError } from './expression-error';
import { Token, tokenize } from './tokenizer';

function shapes(source: string): string[] {
  return tokenize(source).map((token: Token) =>
    token.type === 'end' ? 'end' : `${token.type}:${String(token.value)}@${token.start}-${token.end}`,
  );
}

function errorOf(source: string): ExpressionError {
  try {
    tokenize(source);
  } catch (error) {
    return error as ExpressionError;
  }
  throw new Error(`${source} tokenized`);
}

describe('tokenize', () => {
  it('reads numbers, strings, words and symbols with their spans', () => {
    expect(shapes('properties["a b"] >= 1.5e3 and\t-x')).toEqual([
      'word:properties@0-10',
      'symbol:[@10-11',
      'string:a b@11-16',
      'symbol:]@16-17',
      'symbol:>=@18-20',
      'number:1500@21-26',
      'word:and@27-30',
      'symbol:-@31-32',
      'word:x@32-33',
      'end',
    ]);
  });

  it('decodes JSON escapes, including surrogate pairs', () => {
    const [token] = tokenize(String.raw`"q\" b\\ s\/ \b\f\n\r\t \u00e9 \ud83d\ude00"`);
    expect(token).toMatchObject({ type: 'string', value: 'q" b\\ s/ \b\f\n\r\t é 😀' });
  });

  it('keeps every other character of a string as it is', () => {
    expect(tokenize('"--/* \'{p:String}\' */"')[0]).toMatchObject({ value: "--/* '{p:String}' */" });
  });

  it('leaves a character no token starts with for the parser to report', () => {
    expect(shapes('1 & 2')).toEqual(['number:1@0-1', 'invalid:&@2-3', 'number:2@4-5', 'end']);
    expect(shapes("'a'")[0]).toBe("invalid:'@0-1");
  });

  it('does not take a fraction or exponent without digits', () => {
    expect(shapes('1.e')).toEqual(['number:1@0-1', 'invalid:.@1-2', 'word:e@2-3', 'end']);
  });

  it.each([
    ['1 = 2', 2, '"=="'],
    ['!x', 0, '"!="'],
    ['"open', 5, "a closing '\"'"],
    ['"bad \\x"', 5, 'an escape: \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX'],
    ['"short \\u12"', 7, 'an escape: \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX'],
    ['"lone \\ud800"', 0, 'a string of well-formed Unicode (no lone surrogate)'],
    ['1e400', 0, 'a number between -1.7976931348623157e308 and 1.7976931348623157e308'],
  ])('refuses %j at %i, expecting %s', (source, position, expected) => {
    const error = errorOf(source);
    expect(error).toBeInstanceOf(ExpressionError);
    expect({ position: error.position, expected: error.expected }).toEqual({ position, expected });
    expect(error.message).toBe(`at position ${position}: expected ${expected}`);
  });
});
