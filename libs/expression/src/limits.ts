/**
 * Bounds on what a caller-supplied expression may cost. They keep a hostile expression from
 * exhausting memory or the parser's stack, and keep the compiled SQL inside ClickHouse's own
 * parser limits (max_parser_depth, max_ast_elements) at their defaults.
 */
export const MAX_EXPRESSION_LENGTH = 10_000;

/** Levels of nesting: operators, parentheses, function calls and lists all count; a chain of `and`s (or of `or`s) is one level. */
export const MAX_NESTING_DEPTH = 64;

/** Items in one list literal (`[1, 2, …]`); a list travels as one bound parameter. */
export const MAX_LIST_ITEMS = 1_000;

/** Characters in one property name (`properties["…"]`), the same bound as a property value. */
export const MAX_NAME_LENGTH = 255;

/** Keys in one property path: `properties["a"]["b"]` has two. */
export const MAX_PROPERTY_PATH_LENGTH = 8;

/** Operators, literals, properties and calls in one expression. */
export const MAX_EXPRESSION_NODES = 1_000;

/**
 * Elements of the compiled SQL with every shared subexpression written out where it is used, as
 * ClickHouse's analyzer expands aliases. Planning costs about 10–20 µs per element on our
 * machines, so this bounds it near 100 ms (a typical filter is a few hundred); ClickHouse
 * itself refuses queries over 500,000.
 */
export const MAX_COMPILED_SIZE = 10_000;
