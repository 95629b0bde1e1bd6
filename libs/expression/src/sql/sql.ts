type Part = string | Sql;

/**
 * A piece of SQL. It can only be built from the compiler's own text (template literals,
 * {@link trusted}) and bound parameters, so user text never reaches SQL as text.
 */
export class Sql {
  /** Use {@link sql}, {@link trusted} or {@link shared}. */
  constructor(
    readonly parts: readonly Part[],
    /** `atomic`: a literal, parameter or column, cheap to repeat; `shared`: aliased when used twice. */
    readonly role: 'plain' | 'atomic' | 'shared',
  ) {}
}

export function sql(strings: TemplateStringsArray, ...values: readonly Sql[]): Sql {
  const parts: Part[] = [];
  strings.forEach((text, index) => {
    if (text) parts.push(text);
    if (index < values.length) parts.push(values[index]);
  });
  return new Sql(parts, 'plain');
}

/** The compiler's constants and the scope's column expressions: never user input. */
export function trusted(text: string): Sql {
  return new Sql([text], 'atomic');
}

/** A string literal of the compiler's own (a regular expression, a format); user strings are parameters. */
export function constantString(text: string): Sql {
  return trusted(`'${text.replace(/[\\']/g, (character) => `\\${character}`)}'`);
}

export function joinSql(items: readonly Sql[], separator: string): Sql {
  const parts: Part[] = [];
  items.forEach((item, index) => parts.push(...(index > 0 ? [separator, item] : [item])));
  return new Sql(parts, 'plain');
}

/**
 * A subexpression its parents may use more than once. Repeating its text instead would grow the
 * SQL exponentially with nesting, so when it is used twice the first use defines an alias
 * (`(… AS w_v3)`) and later ones name it; ClickHouse computes it once either way.
 */
export function shared(value: Sql): Sql {
  return value.role === 'plain' ? new Sql([value], 'shared') : value;
}

export const TRUE = trusted('1');
export const FALSE = trusted('0');
export const NULL = trusted('NULL');

/** The operands of each AND / OR built here, so that nested ones flatten into one. */
const junctionOperands = new WeakMap<Sql, { readonly operator: string; readonly operands: readonly Sql[] }>();

function junction(operator: ' AND ' | ' OR ', conditions: readonly Sql[]): Sql {
  const operands = conditions.flatMap((condition) => {
    const inner = junctionOperands.get(condition);
    return inner?.operator === operator ? inner.operands : [condition];
  });
  if (operands.length === 1) return operands[0];
  const result = sql`(${joinSql(operands, operator)})`;
  junctionOperands.set(result, { operator, operands });
  return result;
}

/** Conjunction, folding the constant operands away. */
export function and(...conditions: readonly Sql[]): Sql {
  if (conditions.includes(FALSE)) return FALSE;
  const open = conditions.filter((condition) => condition !== TRUE);
  return open.length === 0 ? TRUE : junction(' AND ', open);
}

export function or(...conditions: readonly Sql[]): Sql {
  if (conditions.includes(TRUE)) return TRUE;
  const open = conditions.filter((condition) => condition !== FALSE);
  return open.length === 0 ? FALSE : junction(' OR ', open);
}

/** Each negation remembers what it negates, so `not(not(x))` is `x` again. */
const negated = new WeakMap<Sql, Sql>();

export function not(condition: Sql): Sql {
  if (condition === TRUE) return FALSE;
  if (condition === FALSE) return TRUE;
  const original = negated.get(condition);
  if (original !== undefined) return original;
  const negation = sql`(NOT ${condition})`;
  negated.set(negation, condition);
  return negation;
}

/** `multiIf`, dropping branches that can never be taken and stopping at one that always is. */
export function choose(branches: readonly (readonly [condition: Sql, result: Sql])[], otherwise: Sql): Sql {
  const open: (readonly [Sql, Sql])[] = [];
  for (const [condition, result] of branches) {
    if (condition === FALSE) continue;
    if (condition === TRUE) {
      otherwise = result;
      break;
    }
    open.push([condition, result]);
  }
  if (open.length === 0) return otherwise;
  if (open.every(([, result]) => result === otherwise)) return otherwise;
  const name = open.length === 1 ? 'if' : 'multiIf';
  return sql`${trusted(name)}(${joinSql([...open.flat(), otherwise], ', ')})`;
}

/** The SQL text; `aliasPrefix` names the aliases of shared subexpressions used more than once. */
export function renderSql(root: Sql, aliasPrefix: string): string {
  const uses = new Map<Sql, number>();
  countUses(root, uses);
  const aliases = new Map<Sql, string>();
  const out: string[] = [];
  const emit = (node: Sql): void => {
    if (node.role === 'shared' && uses.get(node)! > 1) {
      const alias = aliases.get(node);
      if (alias !== undefined) return void out.push(alias);
      const name = `${aliasPrefix}${aliases.size}`;
      aliases.set(node, name);
      out.push('(');
      node.parts.forEach(emitPart);
      out.push(` AS ${name})`);
      return;
    }
    node.parts.forEach(emitPart);
  };
  const emitPart = (part: Part): void => (typeof part === 'string' ? void out.push(part) : emit(part));
  emit(root);
  return out.join('');
}

/** Counts textual uses; below a shared node seen before, nothing is counted again (its alias stands in). */
function countUses(node: Sql, uses: Map<Sql, number>): void {
  if (node.role === 'shared') {
    const seen = uses.get(node) ?? 0;
    uses.set(node, seen + 1);
    if (seen > 0) return;
  }
  for (const part of node.parts) if (typeof part !== 'string') countUses(part, uses);
}

const expandedSizes = new WeakMap<Sql, number>();

/**
 * The size of the SQL with every alias reference written out: ClickHouse's analyzer copies an
 * aliased expression into each place that names it, so this, not the text, is what its query
 * tree limit ("Query tree is too big. Maximum: 500000") and its planning time grow with.
 */
export function expandedSize(node: Sql): number {
  let size = expandedSizes.get(node);
  if (size === undefined) {
    size = node.parts.reduce((total: number, part) => total + (typeof part === 'string' ? 1 : expandedSize(part)), 0);
    expandedSizes.set(node, size);
  }
  return size;
}
