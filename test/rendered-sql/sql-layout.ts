/**
 * A small, stable layout for ClickHouse SQL as our builders write it: each clause on a line of its
 * own, a subquery indented under the parenthesis that opens it, a SELECT list one column a line, the
 * conditions of a WHERE one `AND` a line. It only changes whitespace outside string literals,
 * placeholders (`{name:Type}`) and quoted names, so the text ClickHouse parses is the same
 * (sql-layout.spec.ts checks it). sql-formatter's ClickHouse dialect was tried first: it rewrites
 * tuple access `birth.1` as `birth .1`, breaks `AS first` over two lines and spaces `countIf (`.
 */

type Token = { kind: 'space' | 'word' | 'opaque' | 'comment' | 'punct'; text: string };

/** Clauses that start a line when they stand at a query's own level (never inside a function's parentheses). */
const CLAUSES = [
  ['INSERT', 'INTO'],
  ['ALTER', 'TABLE'],
  ['DELETE', 'FROM'],
  ['WITH'],
  ['SELECT'],
  ['FROM'],
  ['PREWHERE'],
  ['WHERE'],
  ['GROUP', 'BY'],
  ['HAVING'],
  ['ORDER', 'BY'],
  ['LIMIT'],
  ['SETTINGS'],
  ['FORMAT'],
  ['UNION', 'ALL'],
  ['UNION', 'DISTINCT'],
];

/** Words that may come before JOIN in a join clause (`LEFT ANY JOIN`, `ARRAY JOIN`, …). */
const JOIN_WORDS = new Set([
  'GLOBAL',
  'LEFT',
  'RIGHT',
  'INNER',
  'FULL',
  'CROSS',
  'OUTER',
  'ARRAY',
  'ANY',
  'ALL',
  'SEMI',
  'ANTI',
  'ASOF',
  'PASTE',
]);

/** Where a clause's conditions get one line each. */
const CONDITION_CLAUSES = new Set(['WHERE', 'PREWHERE', 'HAVING']);

function closing(sql: string, start: number, open: string, close: string): number {
  let depth = 0;
  for (let i = start; i < sql.length; i += 1) {
    if (sql[i] === open) depth += 1;
    else if (sql[i] === close && --depth === 0) return i + 1;
  }
  return sql.length;
}

function quoted(sql: string, start: number): number {
  const quote = sql[start];
  for (let i = start + 1; i < sql.length; i += 1) {
    if (sql[i] === '\\') i += 1;
    else if (sql[i] === quote) {
      if (sql[i + 1] !== quote) return i + 1;
      i += 1;
    }
  }
  return sql.length;
}

export function tokens(sql: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    let end: number;
    let kind: Token['kind'];
    if (/\s/.test(c)) {
      kind = 'space';
      end = i + (/^\s+/.exec(sql.slice(i)) as RegExpExecArray)[0].length;
    } else if (c === "'" || c === '"' || c === '`') {
      kind = 'opaque';
      end = quoted(sql, i);
    } else if (c === '{') {
      kind = 'opaque';
      end = closing(sql, i, '{', '}');
    } else if (c === '-' && sql[i + 1] === '-') {
      kind = 'comment';
      end = sql.indexOf('\n', i) === -1 ? sql.length : sql.indexOf('\n', i);
    } else if (/[A-Za-z_]/.test(c)) {
      kind = 'word';
      end = i + (/^[A-Za-z0-9_]+/.exec(sql.slice(i)) as RegExpExecArray)[0].length;
    } else {
      kind = 'punct';
      end = i + 1;
    }
    out.push({ kind, text: sql.slice(i, end) });
    i = end;
  }
  return out;
}

/** The words of a clause starting at token `at` (spaces between them), and the index after it; none if it is not one. */
function clauseAt(list: Token[], at: number): { words: string[]; next: number } | undefined {
  const wordsFrom = (count: number) => {
    const words: string[] = [];
    let i = at;
    while (words.length < count && i < list.length) {
      if (list[i].kind === 'word') words.push(list[i].text);
      else if (list[i].kind !== 'space') break;
      i += 1;
    }
    return { words, next: i };
  };
  for (const clause of CLAUSES) {
    const found = wordsFrom(clause.length);
    if (found.words.join(' ') === clause.join(' ')) return found;
  }
  const join = wordsFrom(6);
  const end = join.words.indexOf('JOIN');
  if (end >= 0 && join.words.slice(0, end).every((word) => JOIN_WORDS.has(word))) return wordsFrom(end + 1);
  return undefined;
}

function nextWord(list: Token[], at: number): string | undefined {
  for (let i = at; i < list.length; i += 1) if (list[i].kind !== 'space') return list[i].text;
  return undefined;
}

/** Whether the frame on top is a query's own level: a subquery's parenthesis, or the statement itself. */
interface Frame {
  query: boolean;
  /** A query's: the indent of its clauses, and of the line its parenthesis opened on (where the closing one goes). */
  indent?: number;
  opener?: number;
  clause?: string;
  /** A `BETWEEN` whose `AND` is still to come (that AND stays on the line). */
  between?: boolean;
}

export function layoutSql(sql: string): string {
  const list = tokens(sql.trim());
  const lines: string[] = [];
  const stack: Frame[] = [{ query: true, indent: 0 }];
  let line = '';
  let space = false;
  const queryIndent = () => stack.findLast((frame) => frame.query)?.indent ?? 0;
  const newline = (indent = queryIndent()) => {
    if (line.trim()) lines.push(line.trimEnd());
    line = ' '.repeat(indent);
    space = false;
  };
  const emit = (text: string) => {
    if (
      space &&
      line.trim() &&
      !line.endsWith('(') &&
      !line.endsWith('[') &&
      text !== ',' &&
      text !== ')' &&
      text !== ']'
    )
      line += ' ';
    line += text;
    space = false;
  };
  for (let i = 0; i < list.length; i += 1) {
    const token = list[i];
    const top = stack[stack.length - 1];
    if (token.kind === 'space') {
      space = true;
      continue;
    }
    if (token.kind === 'comment') {
      emit(token.text);
      newline();
      continue;
    }
    if (token.text === '(') {
      emit('(');
      const next = nextWord(list, i + 1);
      const opener = line.length - line.trimStart().length;
      stack.push(next === 'SELECT' || next === 'WITH' ? { query: true, indent: opener + 2, opener } : { query: false });
      continue;
    }
    if (token.text === '[') {
      emit('[');
      stack.push({ query: false });
      continue;
    }
    if ((token.text === ')' || token.text === ']') && stack.length > 1) {
      const frame = stack.pop() as Frame;
      if (frame.query) newline(frame.opener);
      emit(token.text);
      continue;
    }
    if (top.query && token.kind === 'word') {
      const clause = clauseAt(list, i);
      if (clause) {
        newline();
        emit(clause.words.join(' '));
        top.clause = clause.words.join(' ');
        top.between = false;
        i = clause.next - 1;
        continue;
      }
      if (token.text === 'BETWEEN') top.between = true;
      if (token.text === 'AND' && top.clause && CONDITION_CLAUSES.has(top.clause)) {
        if (top.between) top.between = false;
        else newline(queryIndent() + 2);
      }
    }
    emit(token.text);
    if (top.query && token.text === ',' && top.clause === 'SELECT') newline(queryIndent() + 2);
  }
  newline();
  return lines.join('\n');
}
