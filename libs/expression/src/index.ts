export { ExpressionError } from './expression-error';
export { parseExpression } from './parser';
export { childrenOf, Expression, mapChildren, printExpression } from './syntax-tree';
export { JsonObject } from './value';
export { eventRow } from './expression-row';
export { evaluate, keepsRow, segmentKey } from './evaluator';
export { toPropertiesJson } from './properties-json';
export { eventsScope, ExpressionLookups, LookupSource, profilesScope } from './sql/expression-scope';
export { CompiledSql, compileSegment, compileWhere } from './sql/compile';
