import {
  childrenOf,
  CompiledSql,
  compileWhere,
  eventsScope,
  Expression,
  ExpressionLookups,
  mapChildren,
} from '@analytics/expression';

/** The raw export's `where`: the parsed expression (to resolve the ids it names) and its SQL. */
export interface ExportFilter {
  expression: Expression;
  compiled: CompiledSql;
}

/** Compiled over the events' columns (and the project's lookup tables); every value a bound parameter (`w_0`, …). */
export const compileExportFilter = (expression: Expression, lookups?: ExpressionLookups): ExportFilter => ({
  expression,
  compiled: compileWhere(expression, eventsScope({ lookups }), { prefix: 'w' }),
});

const isDistinctId = (expression: Expression): boolean =>
  expression.type === 'property' &&
  expression.source === 'properties' &&
  expression.path.length === 1 &&
  expression.path[0] === 'distinct_id';

const isText = (expression: Expression): expression is Expression & { type: 'literal'; value: string } =>
  expression.type === 'literal' && typeof expression.value === 'string';

/** Whether the filter reads `properties["distinct_id"]` anywhere. */
export const readsDistinctId = (expression: Expression): boolean =>
  isDistinctId(expression) || childrenOf(expression).some(readsDistinctId);

/**
 * The ids the filter compares `distinct_id` with: the string literals of `distinct_id == "x"`,
 * `"x" != distinct_id` and `distinct_id in ["x", …]` (the list form; `"x" in distinct_id` is a
 * substring test and names no id). Each stands for its person (docs/export.md).
 */
export function idsComparedWithDistinctId(expression: Expression): string[] {
  const ids = new Set<string>();
  const walk = (node: Expression): void => {
    if (node.type === 'binary' && (node.operator === '==' || node.operator === '!=')) {
      if (isDistinctId(node.left) && isText(node.right)) ids.add(node.right.value);
      if (isDistinctId(node.right) && isText(node.left)) ids.add(node.left.value);
    }
    if (node.type === 'binary' && node.operator === 'in' && isDistinctId(node.left) && node.right.type === 'list') {
      node.right.items.filter(isText).forEach((item) => ids.add(item.value));
    }
    childrenOf(node).forEach(walk);
  };
  walk(expression);
  return [...ids];
}

/**
 * The filter with each id it compares `distinct_id` with replaced by its person's canonical id
 * (`canonical`: id → canonical id, for ids merged under another): the export's `distinct_id` is
 * the canonical id, so `distinct_id == "$device:abc"` then keeps every event of abc's person, and
 * `!=` none of them.
 */
export function withCanonicalIds(expression: Expression, canonical: ReadonlyMap<string, string>): Expression {
  const swap = (node: Expression): Expression =>
    isText(node) && canonical.has(node.value) ? { ...node, value: canonical.get(node.value)! } : node;
  const walk = (node: Expression): Expression => {
    const mapped = mapChildren(node, walk);
    if (mapped.type !== 'binary') return mapped;
    const { operator, left, right } = mapped;
    if (operator === '==' || operator === '!=')
      return {
        ...mapped,
        left: isDistinctId(right) ? swap(left) : left,
        right: isDistinctId(left) ? swap(right) : right,
      };
    if (operator === 'in' && isDistinctId(left) && right.type === 'list')
      return { ...mapped, right: { ...right, items: right.items.map(swap) } };
    return mapped;
  };
  return walk(expression);
}
