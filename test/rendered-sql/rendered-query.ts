import type { ChBoundQuery } from '@analytics/tenancy';
import { layoutSql, tokens } from './sql-layout';

/** One query a builder renders for fixed, representative inputs. */
export interface RenderedQuery {
  /** The function or repository method that builds it (`funnelSql`, `IdentityRepository.load`). */
  builder: string;
  /** Its inputs, in words: the reader of the .sql file sees what the query was rendered for. */
  inputs: string;
  query: ChBoundQuery;
}

/** A committed .sql file: the queries of one builder module or repository. */
export interface RenderedSqlFile {
  /** Where the file is committed, relative to the repository root (`libs/query/sql/funnel-sql.sql`). */
  file: string;
  /** The source file whose queries it shows. */
  source: string;
  queries: readonly RenderedQuery[];
}

/** The placeholders `{name:Type}` of the SQL in order of first use, with their types. */
function placeholders(sql: string): [string, string][] {
  const found = new Map<string, string>();
  for (const token of tokens(sql)) {
    const match = token.kind === 'opaque' ? /^\{([A-Za-z_][A-Za-z0-9_]*):(.+)\}$/s.exec(token.text) : null;
    if (match && !found.has(match[1])) found.set(match[1], match[2]);
  }
  return [...found];
}

function parameterLines({ sql, params }: ChBoundQuery): string[] {
  const listed = placeholders(sql);
  if (!listed.length) return ['-- parameters: none'];
  const width = Math.max(...listed.map(([name, type]) => `${name} ${type}`.length));
  return [
    '-- parameters:',
    ...listed.map(([name, type]) => `--   ${`${name} ${type}`.padEnd(width)} = ${JSON.stringify(params[name])}`),
  ];
}

/** The text of a committed .sql file: a header, then each query under its builder, inputs and bound parameters. */
export function renderedSqlText(file: RenderedSqlFile): string {
  const header = `-- Rendered by \`npm run sql:render\` from ${file.source}; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).`;
  const queries = file.queries.map((query) =>
    [
      `-- ${query.builder}`,
      `-- inputs: ${query.inputs}`,
      ...parameterLines(query.query),
      layoutSql(query.query.sql),
    ].join('\n'),
  );
  return `${[header, ...queries].join('\n\n')}\n`;
}
