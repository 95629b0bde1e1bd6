import { RENDERED_SQL_FILES } from './rendered-sql-files';
import { layoutSql, tokens } from './sql-layout';

const meaningful = (sql: string) => tokens(sql).filter((token) => token.kind !== 'space');

describe('layoutSql', () => {
  it('lays out clauses, subqueries, SELECT lists and WHERE conditions', () => {
    const sql = `SELECT a, f(b, c) AS d, [1, 2] AS e FROM (SELECT a, b, c FROM t FINAL LEFT ANY JOIN (SELECT x FROM u WHERE k = 1) AS j ON j.x = t.a
      WHERE p = {p0:UInt32} AND a IN (SELECT a FROM v)) ARRAY JOIN e WHERE d BETWEEN 1 AND 2 AND e > 0 GROUP BY a ORDER BY a SETTINGS s = 1`;
    expect(layoutSql(sql)).toBe(
      [
        'SELECT a,',
        '  f(b, c) AS d,',
        '  [1, 2] AS e',
        'FROM (',
        '  SELECT a,',
        '    b,',
        '    c',
        '  FROM t FINAL',
        '  LEFT ANY JOIN (',
        '    SELECT x',
        '    FROM u',
        '    WHERE k = 1',
        '  ) AS j ON j.x = t.a',
        '  WHERE p = {p0:UInt32}',
        '    AND a IN (',
        '      SELECT a',
        '      FROM v',
        '    )',
        ')',
        'ARRAY JOIN e',
        'WHERE d BETWEEN 1 AND 2',
        '  AND e > 0',
        'GROUP BY a',
        'ORDER BY a',
        'SETTINGS s = 1',
      ].join('\n'),
    );
  });

  it('leaves string literals, placeholders and quoted names as they are', () => {
    const sql = `SELECT 'a  FROM  b, c' AS "x  y", {t:DateTime64(3, 'UTC')} FROM t WHERE s = 'it''s\\' WHERE'`;
    expect(layoutSql(sql)).toBe(
      `SELECT 'a  FROM  b, c' AS "x  y",\n  {t:DateTime64(3, 'UTC')}\nFROM t\nWHERE s = 'it''s\\' WHERE'`,
    );
  });

  it('changes only whitespace in every rendered query: ClickHouse reads the same tokens', () => {
    for (const { queries } of RENDERED_SQL_FILES) {
      for (const { query } of queries) expect(meaningful(layoutSql(query.sql))).toEqual(meaningful(query.sql));
    }
  });
});
