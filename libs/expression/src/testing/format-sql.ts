/** A bracketed group of SQL: `(…)`, `[…]`, or the whole text. */
interface Group {
  readonly open: string;
  readonly close: string;
  readonly children: (string | Group)[];
}

const WIDTH = 100;
const TOKEN = /'(?:[^'\\]|\\.)*'|[()[\]]|[^'()[\]]+/g;
const SEPARATOR = /(, | AND | OR )/;

/**
 * Lays SQL out as an indented tree for reading (the golden file): a bracketed group that fits
 * in the width stays on one line, a longer one puts each argument or AND/OR operand on a line.
 */
export function formatSql(sql: string): string {
  return layout(parse(sql), '');
}

function parse(sql: string): Group {
  const root: Group = { open: '', close: '', children: [] };
  const stack = [root];
  for (const [token] of sql.matchAll(TOKEN)) {
    const top = stack[stack.length - 1];
    if (token === '(' || token === '[') {
      const group: Group = { open: token, close: token === '(' ? ')' : ']', children: [] };
      top.children.push(group);
      stack.push(group);
    } else if ((token === ')' || token === ']') && stack.length > 1) {
      stack.pop();
    } else {
      top.children.push(token);
    }
  }
  return root;
}

function flat(group: Group): string {
  return (
    group.open + group.children.map((child) => (typeof child === 'string' ? child : flat(child))).join('') + group.close
  );
}

function layout(group: Group, indent: string): string {
  const text = flat(group);
  if (indent.length + text.length <= WIDTH) return text;
  const inner = group.open ? `${indent}  ` : indent;
  const lines: string[] = [];
  let line = '';
  for (const child of group.children) {
    if (typeof child !== 'string') {
      line += layout(child, inner);
      continue;
    }
    for (const part of child.split(SEPARATOR)) {
      if (part === ', ') {
        lines.push(`${line},`);
        line = '';
      } else if (part === ' AND ' || part === ' OR ') {
        lines.push(line);
        line = `${part.trim()} `;
      } else {
        line += part;
      }
    }
  }
  lines.push(line);
  const body = lines.map((text) => inner + text.trim()).join('\n');
  return group.open ? `${group.open}\n${body}\n${indent}${group.close}` : body.trimStart();
}
