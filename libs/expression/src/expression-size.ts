import { ExpressionError, ExpressionErrorCode } from './expression-error';
import { MAX_EXPRESSION_NODES, MAX_NESTING_DEPTH } from './limits';
import { childrenOf, Expression } from './syntax-tree';

/**
 * Chains such as `a + b + c …` nest deeper than the parser recursed, so the finished tree is
 * measured too (without recursion, as a hostile tree may be deep). A chain of `and`s or of `or`s
 * is one level, as it compiles to one n-ary AND / OR. A list literal counts as one node, as it
 * compiles to one bound parameter, but its items still count for depth.
 */
export function checkSize(root: Expression): void {
  const pending: { expression: Expression; depth: number; inList: boolean }[] = [
    { expression: root, depth: 1, inList: false },
  ];
  let nodes = 0;
  while (pending.length > 0) {
    const { expression, depth, inList } = pending.pop()!;
    if (depth > MAX_NESTING_DEPTH) {
      throw new ExpressionError(
        expression.start,
        `at most ${MAX_NESTING_DEPTH} levels of nesting`,
        ExpressionErrorCode.TooComplex,
      );
    }
    if (!inList && ++nodes > MAX_EXPRESSION_NODES) {
      throw new ExpressionError(
        expression.start,
        `at most ${MAX_EXPRESSION_NODES} operators, values and calls`,
        ExpressionErrorCode.TooComplex,
      );
    }
    const childrenInList = inList || expression.type === 'list';
    for (const child of childrenOf(expression)) {
      pending.push({
        expression: child,
        depth: continuesJunction(expression, child) ? depth : depth + 1,
        inList: childrenInList,
      });
    }
  }
}

function continuesJunction(parent: Expression, child: Expression): boolean {
  return (
    parent.type === 'binary' &&
    child.type === 'binary' &&
    child.operator === parent.operator &&
    (parent.operator === 'and' || parent.operator === 'or')
  );
}
