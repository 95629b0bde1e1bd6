export { ExpressionError, ExpressionErrorCode } from './expression-error';
export {
  MAX_COMPILED_SIZE,
  MAX_EXPRESSION_LENGTH,
  MAX_EXPRESSION_NODES,
  MAX_LIST_ITEMS,
  MAX_NAME_LENGTH,
  MAX_NESTING_DEPTH,
  MAX_PROPERTY_PATH_LENGTH,
} from './limits';
export { parseExpression } from './parser';
export {
  BinaryOperation,
  BinaryOperator,
  childrenOf,
  EventTime,
  Expression,
  FUNCTION_NAMES,
  FunctionCall,
  FunctionName,
  ListLiteral,
  Literal,
  mapChildren,
  printExpression,
  PropertyReference,
  PropertySource,
  UnaryOperation,
  UnaryOperator,
} from './syntax-tree';
export { DateTime, JsonObject, JsonValue, Kind, kindOf, Value } from './value';
export { EventRecord, eventRow, ExpressionRow, ProfileRecord, profileRow } from './expression-row';
export { evaluate, keepsRow, segmentKey } from './evaluator';
export { EVENT_PROPERTY_COLUMNS, PropertyColumn, PropertyColumnType } from './event-columns';
export { toPropertiesJson } from './properties-json';
export { EventsScopeOptions, eventsScope, ExpressionScope, profilesScope } from './sql/expression-scope';
export { CompiledSql, CompileOptions, compileSegment, compileWhere } from './sql/compile';
export { QueryParameterValue } from './sql/query-parameters';
