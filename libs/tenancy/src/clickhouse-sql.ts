import { isProjectScope, ProjectScope } from './project-scope';

/**
 * ClickHouse SQL as fragments that compose (after OpenPanel's `sql` helper), whose slots take only
 * what this file built or a project scope, never text:
 *
 * - a fragment: `chSql` itself, `chParam` (a value), `chIdent` (a table or column name of ours,
 *   checked), `chScope` (the tenant predicate on a table alias), `chJoin`, and `chCompiled` (SQL
 *   that code compiled with its own named parameters, such as the expression compiler's);
 * - a {@link ProjectScope}, which writes `project_id = {pN:UInt32}` itself.
 *
 * Values go in through `chParam`, never bare, so that a slot never turns text into SQL and reading
 * a template tells SQL, values and the tenant apart. `chParam` infers the type of a string
 * (`String`), a boolean (`Bool`), a whole number (`Int64`) and an array of strings
 * (`Array(String)`); any other value (a fraction, a date, an unsigned column) names its type, one
 * of {@link ChType}.
 *
 * `renderChSql` names the placeholders `p0`, `p1`, … in the order they appear (one name for the
 * scope: its predicate may appear many times, and a query names one project only), avoiding the names `chCompiled` parts and the `params`
 * option brought, so composed fragments never collide; it refuses a query without the project
 * predicate unless told it reads across projects. The result is a `{ sql, params }` for
 * @clickhouse/client's `query_params`.
 */

/** The ClickHouse types a value may be bound as. */
const CH_TYPE_NAMES = [
  'String',
  'Bool',
  'UInt8',
  'UInt32',
  'UInt64',
  'Int64',
  'Float64',
  'Date',
  "DateTime64(3, 'UTC')",
  'Array(String)',
  'Array(UInt32)',
  'Array(UInt64)',
  'Array(Int64)',
] as const;

export type ChType = (typeof CH_TYPE_NAMES)[number];

const CH_TYPES: ReadonlySet<string> = new Set(CH_TYPE_NAMES);

/** SQL and its bound values, as QueryRunner and @clickhouse/client's `query_params` take them. */
export interface ChBoundQuery {
  sql: string;
  params: Record<string, unknown>;
}

type Part =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'value'; readonly value: unknown; readonly type: ChType }
  | { readonly kind: 'scope'; readonly projectId: number; readonly alias?: string }
  | { readonly kind: 'scopes'; readonly projectIds: readonly number[] }
  | { readonly kind: 'compiled'; readonly sql: string; readonly params: Readonly<Record<string, unknown>> };

/** Not exported: a fragment is made here or not at all. */
const PARTS: unique symbol = Symbol('ChSql');

/** A piece of ClickHouse SQL with its values, built by this file's functions only. */
export interface ChSql {
  readonly [PARTS]: readonly Part[];
}

/** What a `chSql` slot takes. */
export type ChSlot = ChSql | ProjectScope;

export class ChSqlError extends Error {
  override readonly name = 'ChSqlError';
}

function fragment(parts: readonly Part[]): ChSql {
  return Object.freeze({ [PARTS]: Object.freeze([...parts]) });
}

function isChSql(value: unknown): value is ChSql {
  return typeof value === 'object' && value !== null && Array.isArray((value as Partial<ChSql>)[PARTS]);
}

function describe(value: unknown): string {
  if (typeof value === 'string')
    return `string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

function slotParts(slot: unknown, index: number): readonly Part[] {
  if (isChSql(slot)) return slot[PARTS];
  if (isProjectScope(slot)) return [{ kind: 'scope', projectId: slot.projectId }];
  throw new ChSqlError(
    `chSql slot ${index + 1} holds a ${describe(slot)}: a slot takes a fragment (chSql, chParam, chIdent, chScope, chJoin, chCompiled) or a ProjectScope`,
  );
}

/** The tag: the template's text is SQL written in our code, each slot a fragment or a scope. */
export function chSql(strings: TemplateStringsArray, ...slots: ChSlot[]): ChSql {
  if (!Array.isArray(strings) || !Array.isArray((strings as Partial<TemplateStringsArray>).raw)) {
    throw new ChSqlError('chSql is a template tag: chSql`…`');
  }
  const parts: Part[] = [];
  strings.forEach((text, i) => {
    if (text !== '') parts.push({ kind: 'text', text });
    if (i < slots.length) parts.push(...slotParts(slots[i], i));
  });
  return fragment(parts);
}

function inferredType(value: unknown): ChType {
  if (typeof value === 'string') return 'String';
  if (typeof value === 'boolean') return 'Bool';
  if (typeof value === 'number' && Number.isSafeInteger(value)) return 'Int64';
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return 'Array(String)';
  throw new ChSqlError(
    `chParam cannot infer the ClickHouse type of a ${describe(value)}${typeof value === 'number' ? ` (${value})` : ''}: name it, chParam(value, 'Float64')`,
  );
}

/** A value, bound as a placeholder; its type inferred (string, boolean, whole number, string[]) or named. */
export function chParam(value: string | boolean | number | readonly string[]): ChSql;
export function chParam(value: unknown, type: ChType): ChSql;
export function chParam(value: unknown, type?: ChType): ChSql {
  if (type !== undefined && !CH_TYPES.has(type))
    throw new ChSqlError(`chParam: ${JSON.stringify(type)} is not a ClickHouse type this tag binds`);
  return fragment([{ kind: 'value', value, type: type ?? inferredType(value) }]);
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

/** A table, column or alias name of ours (`events`, `ev.time`), checked to be a plain identifier. */
export function chIdent(name: string): ChSql {
  if (typeof name !== 'string' || !IDENTIFIER.test(name))
    throw new ChSqlError(`chIdent: ${JSON.stringify(name)} is not a plain identifier`);
  return fragment([{ kind: 'text', text: name }]);
}

/** The tenant predicate on a table alias: `<alias>.project_id = {pN:UInt32}`. */
export function chScope(scope: ProjectScope, alias: string): ChSql {
  if (!isProjectScope(scope)) throw new ChSqlError(`chScope takes a ProjectScope, got a ${describe(scope)}`);
  if (!IDENTIFIER.test(alias) || alias.includes('.'))
    throw new ChSqlError(`chScope: ${JSON.stringify(alias)} is not a table alias`);
  return fragment([{ kind: 'scope', projectId: scope.projectId, alias }]);
}

/**
 * The tenant predicate of one statement over several projects' rows (as `pgScopes` for Postgres):
 * `project_id IN {pN:Array(UInt32)}`, the ids those of `scopes`. A query holding it may name no single
 * project besides, and is rendered only with `acrossProjects` saying why it reads several.
 */
export function chScopes(scopes: readonly ProjectScope[]): ChSql {
  if (!scopes.length || !scopes.every(isProjectScope)) throw new ChSqlError('chScopes takes one or more ProjectScopes');
  return fragment([{ kind: 'scopes', projectIds: [...new Set(scopes.map((scope) => scope.projectId))] }]);
}

/** Fragments one after another, `separator` between them (itself a fragment: chSql`, `). */
export function chJoin(fragments: readonly ChSql[], separator: ChSql): ChSql {
  const parts: Part[] = [];
  fragments.forEach((item, i) => {
    if (i > 0) parts.push(...slotParts(separator, i));
    parts.push(...slotParts(item, i));
  });
  return fragment(parts);
}

/**
 * SQL that code compiled with its own named placeholders (the expression compiler's conditions,
 * a builder's fixed text): its names are kept, and the tag's own avoid them. The architecture test
 * test/architecture/tenant-predicate.spec.ts keeps the tenant predicate out of such text.
 */
export function chCompiled(sql: string, params: Readonly<Record<string, unknown>> = {}): ChSql {
  if (typeof sql !== 'string' || typeof params !== 'object' || params === null) {
    throw new ChSqlError('chCompiled takes compiled SQL and the values of its named placeholders');
  }
  return fragment([{ kind: 'compiled', sql, params: { ...params } }]);
}

function namedParams(parts: readonly Part[], named: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  const sources = [named, ...parts.flatMap((part) => (part.kind === 'compiled' ? [part.params] : []))];
  for (const source of sources) {
    for (const [name, value] of Object.entries(source)) {
      if (name in params && JSON.stringify(params[name]) !== JSON.stringify(value)) {
        throw new ChSqlError(`the parameter ${name} is bound to two different values`);
      }
      params[name] = value;
    }
  }
  return params;
}

export interface RenderOptions {
  /** Why the query reads every project: without it, a query without the project predicate is refused. */
  acrossProjects?: string;
  /** The values of `{name:Type}` placeholders the templates' own text writes (a builder's fixed names). */
  params?: Readonly<Record<string, unknown>>;
  /** Placeholder names start with this, not `p`: for a fragment rendered alone, then embedded (compiled) in a query. */
  placeholderPrefix?: string;
}

const PLACEHOLDER_PREFIX = /^[A-Za-z][A-Za-z0-9]{0,15}$/;

/** `{ sql, params }` with the placeholders named. */
export function renderChSql(query: ChSql, options: RenderOptions = {}): ChBoundQuery {
  if (!isChSql(query)) throw new ChSqlError(`renderChSql takes a fragment, got a ${describe(query)}`);
  const parts = query[PARTS];
  if (
    parts.some((part) => part.kind === 'scopes') &&
    (!options.acrossProjects || parts.some((p) => p.kind === 'scope'))
  )
    throw new ChSqlError(
      'a query over several projects (chScopes) says why with acrossProjects, and names no single project',
    );
  if (!options.acrossProjects && !parts.some((part) => part.kind === 'scope')) {
    throw new ChSqlError(
      'this ClickHouse query has no project predicate: put the ProjectScope in it (`WHERE ${scope}`)',
    );
  }
  const projects = new Set(parts.flatMap((part) => (part.kind === 'scope' ? [part.projectId] : [])));
  if (projects.size > 1)
    throw new ChSqlError(
      `this ClickHouse query names ${projects.size} projects (${[...projects].join(', ')}): a query reads one project`,
    );
  const params = namedParams(parts, options.params ?? {});
  const prefix = options.placeholderPrefix ?? 'p';
  if (!PLACEHOLDER_PREFIX.test(prefix)) throw new ChSqlError(`not a placeholder prefix: ${JSON.stringify(prefix)}`);
  let scopeName: string | undefined;
  let next = 0;
  const name = () => {
    while (`${prefix}${next}` in params) next += 1;
    return `${prefix}${next++}`;
  };
  const bind = (value: unknown, type: ChType) => {
    const placeholder = name();
    params[placeholder] = value;
    return `{${placeholder}:${type}}`;
  };
  const sql = parts
    .map((part) => {
      if (part.kind === 'text') return part.text;
      if (part.kind === 'compiled') return part.sql;
      if (part.kind === 'value') return bind(part.value, part.type);
      if (part.kind === 'scopes') return `project_id IN ${bind(part.projectIds, 'Array(UInt32)')}`;
      scopeName ??= bind(part.projectId, 'UInt32');
      return `${part.alias ? `${part.alias}.` : ''}project_id = ${scopeName}`;
    })
    .join('');
  return { sql, params };
}
