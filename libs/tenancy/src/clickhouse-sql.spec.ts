import {
  chCompiled,
  chIdent,
  chJoin,
  chParam,
  chScope,
  chScopes,
  chSql,
  ChSqlError,
  renderChSql,
} from './clickhouse-sql';
import { projectScope } from './project-scope';

const scope = projectScope(7);

describe('chSql', () => {
  it('writes the project predicate for a scope and binds values as named placeholders', () => {
    const query = chSql`SELECT count() FROM ${chIdent('events')} WHERE ${scope} AND event = ${chParam('Signed up')} AND time >= ${chParam(1_700_000_000_000, "DateTime64(3, 'UTC')")}`;

    expect(renderChSql(query)).toEqual({
      sql: "SELECT count() FROM events WHERE project_id = {p0:UInt32} AND event = {p1:String} AND time >= {p2:DateTime64(3, 'UTC')}",
      params: { p0: 7, p1: 'Signed up', p2: 1_700_000_000_000 },
    });
  });

  it('names placeholders when the whole query is rendered, so composed fragments never collide', () => {
    const byEvent = (event: string) => chSql`event = ${chParam(event)}`;
    const inner = chSql`SELECT distinct_id FROM events WHERE ${scope} AND ${byEvent('a')}`;
    const query = chSql`SELECT * FROM (${inner}) WHERE ${byEvent('b')} OR ${byEvent('c')}`;

    expect(renderChSql(query)).toEqual({
      sql: 'SELECT * FROM (SELECT distinct_id FROM events WHERE project_id = {p0:UInt32} AND event = {p1:String}) WHERE event = {p2:String} OR event = {p3:String}',
      params: { p0: 7, p1: 'a', p2: 'b', p3: 'c' },
    });
  });

  it('binds one placeholder for the scope however often its predicate appears', () => {
    const query = chSql`SELECT 1 FROM events AS ev WHERE ${chScope(scope, 'ev')} AND ev.x IN (SELECT x FROM t WHERE ${scope})`;

    expect(renderChSql(query)).toEqual({
      sql: 'SELECT 1 FROM events AS ev WHERE ev.project_id = {p0:UInt32} AND ev.x IN (SELECT x FROM t WHERE project_id = {p0:UInt32})',
      params: { p0: 7 },
    });
  });

  it('refuses a query that names two projects (a fragment built for another project composed in)', () => {
    const query = chSql`SELECT 1 FROM events WHERE ${scope} AND x IN (SELECT x FROM t WHERE ${projectScope(8)})`;

    expect(() => renderChSql(query)).toThrow(ChSqlError);
  });

  it('keeps the names of compiled SQL and gives its own placeholders other names', () => {
    const compiled = chCompiled('JSONExtractRaw(properties, {p0:String}) = {w_1:String}', { p0: 'plan', w_1: 'free' });
    const query = chSql`SELECT 1 FROM events WHERE ${scope} AND ${compiled} AND ${chCompiled("{w_1:String} != ''", { w_1: 'free' })}`;

    expect(renderChSql(query)).toEqual({
      sql: "SELECT 1 FROM events WHERE project_id = {p1:UInt32} AND JSONExtractRaw(properties, {p0:String}) = {w_1:String} AND {w_1:String} != ''",
      params: { p0: 'plan', w_1: 'free', p1: 7 },
    });
  });

  it('refuses two compiled parts that bind one name to different values', () => {
    const query = chSql`${scope} AND ${chCompiled('{a:String}', { a: 'x' })} AND ${chCompiled('{a:String}', { a: 'y' })}`;

    expect(() => renderChSql(query)).toThrow(new ChSqlError('the parameter a is bound to two different values'));
  });

  it('binds the named placeholders the template text writes itself, and names its own around them', () => {
    const query = chSql`SELECT 1 FROM events WHERE ${scope} AND time >= {fromMs:Int64} AND event = ${chParam('a')}`;

    expect(renderChSql(query, { params: { fromMs: 5, p0: 'taken' } })).toEqual({
      sql: 'SELECT 1 FROM events WHERE project_id = {p1:UInt32} AND time >= {fromMs:Int64} AND event = {p2:String}',
      params: { fromMs: 5, p0: 'taken', p1: 7, p2: 'a' },
    });
    expect(() => renderChSql(chSql`${scope}${chCompiled('', { fromMs: 6 })}`, { params: { fromMs: 5 } })).toThrow(
      /fromMs is bound to two different values/,
    );
  });

  it('joins fragments with a fragment between them', () => {
    const columns = chJoin(['event', 'time'].map(chIdent), chSql`, `);

    expect(renderChSql(chSql`SELECT ${columns} FROM events WHERE ${scope}`).sql).toBe(
      'SELECT event, time FROM events WHERE project_id = {p0:UInt32}',
    );
    expect(renderChSql(chSql`SELECT 1 WHERE ${scope}${chJoin([], chSql`, `)}`).sql).toBe(
      'SELECT 1 WHERE project_id = {p0:UInt32}',
    );
  });

  it('refuses a raw string in a slot, at type level and at run time', () => {
    const userText = "x' OR 1 --";

    // @ts-expect-error a slot takes a fragment or a scope, never a string
    expect(() => chSql`SELECT 1 WHERE event = ${userText}`).toThrow(ChSqlError);
    // @ts-expect-error nor a bare value
    expect(() => chSql`SELECT 1 WHERE n = ${1}`).toThrow(/chSql slot 1 holds a number/);
    // @ts-expect-error nor an object shaped like a scope
    expect(() => chSql`SELECT 1 WHERE ${{ projectId: 7 }}`).toThrow(/chSql slot 1 holds a object/);
    expect(() => chSql`SELECT 1 WHERE event = ${userText as never}`).toThrow(/holds a string \("x' OR 1 --"\)/);
  });

  it('refuses to be called as a function on text', () => {
    // @ts-expect-error the tag takes a template, not a string
    expect(() => chSql('SELECT 1')).toThrow(new ChSqlError('chSql is a template tag: chSql`…`'));
  });

  it('refuses a query without the project predicate, unless it says why it reads every project', () => {
    expect(() => renderChSql(chSql`SELECT count() FROM events`)).toThrow(/no project predicate/);
    expect(
      renderChSql(chSql`SELECT count() FROM events`, { acrossProjects: 'the retention sweep reads every project' }),
    ).toEqual({
      sql: 'SELECT count() FROM events',
      params: {},
    });
  });

  it('infers the type of a string, boolean, whole number and string array, and asks for any other', () => {
    const typed = chSql`${scope} ${chParam('a')} ${chParam(true)} ${chParam(-3)} ${chParam(['a', 'b'])} ${chParam(1.5, 'Float64')} ${chParam([1, 2], 'Array(UInt64)')}`;

    expect(renderChSql(typed).sql).toBe(
      'project_id = {p0:UInt32} {p1:String} {p2:Bool} {p3:Int64} {p4:Array(String)} {p5:Float64} {p6:Array(UInt64)}',
    );
    expect(() => chParam(1.5)).toThrow(/cannot infer the ClickHouse type of a number \(1.5\)/);
    expect(() => chParam(new Date(0) as never)).toThrow(/cannot infer/);
    // @ts-expect-error a type this tag does not know
    expect(() => chParam(1, 'Int8; DROP TABLE events')).toThrow(/is not a ClickHouse type this tag binds/);
  });

  it('takes only plain identifiers and aliases', () => {
    expect(
      renderChSql(chSql`SELECT ${chIdent('ev.time')} FROM ${chIdent('events')} AS ev WHERE ${chScope(scope, 'ev')}`)
        .sql,
    ).toBe('SELECT ev.time FROM events AS ev WHERE ev.project_id = {p0:UInt32}');
    expect(() => chIdent('events; DROP TABLE events')).toThrow(/is not a plain identifier/);
    expect(() => chIdent('')).toThrow(/is not a plain identifier/);
    expect(() => chScope(scope, 'a.b')).toThrow(/is not a table alias/);
    expect(() => chScope({ projectId: 7 } as never, 'ev')).toThrow(/chScope takes a ProjectScope/);
  });

  it('writes one predicate over several projects only when the query says why, and with no single project', () => {
    const scopes = [projectScope(3), projectScope(5), projectScope(3)];
    expect(
      renderChSql(chSql`ALTER TABLE events DELETE WHERE ${chScopes(scopes)}`, { acrossProjects: 'a sweep' }),
    ).toEqual({ sql: 'ALTER TABLE events DELETE WHERE project_id IN {p0:Array(UInt32)}', params: { p0: [3, 5] } });
    expect(() => renderChSql(chSql`SELECT 1 FROM events WHERE ${chScopes(scopes)}`)).toThrow(/acrossProjects/);
    expect(() =>
      renderChSql(chSql`SELECT 1 FROM events WHERE ${chScopes(scopes)} OR ${scope}`, { acrossProjects: 'x' }),
    ).toThrow(/names no single project/);
    expect(() => chScopes([])).toThrow(/one or more ProjectScopes/);
    expect(() => chScopes([{ projectId: 7 } as never])).toThrow(/one or more ProjectScopes/);
  });

  it('renders what QueryRunner and the client take', () => {
    const bound: { sql: string; params: Record<string, unknown> } = renderChSql(
      chSql`SELECT 1 FROM events WHERE ${scope}`,
    );

    expect(bound.params).toEqual({ p0: 7 });
  });
});
