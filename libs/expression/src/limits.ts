/**
 * Bounds on what a caller-supplied expression may cost. They keep a hostile expression from
 * exhausting memory or the parser's stack, and keep the compiled SQL inside ClickHouse's own
 * parser limits (max_parser_depth, max_ast_elements) at their defaults.
 */
export const MAX_EXPRESSION_LENGTH = 10_000;

/** Levels of nesting: operators, parentheses, function calls and lists all count. */
export const MAX_NESTING_DEPTH = 64;

/** Items in one list literal (`[1, 2, …]`); a list travels as one bound parameter. */
export const MAX_LIST_ITEMS = 1_000;

/** Characters in one property name (`properties["…"]`), the same bound as a property value. */
export const MAX_NAME_LENGTH = 255;

/** Keys in one property path: `properties["a"]["b"]` has two. */
export const MAX_PROPERTY_PATH_LENGTH = 8;

/** Operators, literals, properties and calls in one expression. */
export const MAX_EXPRESSION_NODES = 1_000;
