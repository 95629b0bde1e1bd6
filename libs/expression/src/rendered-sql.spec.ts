import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileSegment, compileWhere, CompiledSql } from './sql/compile';
import { eventsScope, ExpressionScope, profilesScope } from './sql/expression-scope';
import { formatSql } from './testing/format-sql';

/**
 * The SQL of representative expressions, committed, so that every change to the compiler shows
 * as a readable diff. UPDATE_GOLDEN=1 rewrites the file.
 */
const GOLDEN = join(__dirname, '__golden__', 'rendered-sql.txt');
const EVENTS = eventsScope({ table: 'e', userPropertiesJson: 'p.properties' });
const PROFILES = profilesScope();

type Mode = 'where' | 'on';
const EXAMPLES: readonly [Mode, string, ExpressionScope?][] = [
  ['where', 'properties["plan"] == "pro"'],
  ['where', 'properties["plan"] != "pro"'],
  ['where', 'properties["account_id"] in [1, 2, 3, 4]'],
  ['where', '"vip" in properties["tags"]'],
  ['where', 'defined(properties["$email"])'],
  ['where', 'not defined(properties["$city"])'],
  ['where', 'properties["$browser"] == "Chrome" and not "gmail" in properties["$email"]'],
  ['where', 'properties["price"] * properties["quantity"] > 100'],
  ['where', 'number(properties["age"]) >= 18'],
  ['where', 'boolean(properties["signed up"])'],
  ['where', 'properties["flag"]'],
  ['where', 'properties["address"]["city"] == "Paris"'],
  ['where', 'user["$email"] == "ada@example.com"'],
  ['where', 'event["$time"] >= datetime("2024-04-01T00:00:00Z")'],
  ['where', 'datetime(properties["last_login"]) < datetime(1712000000)'],
  ['where', 'properties["time"] > 1712000000 and properties["distinct_id"] != ""'],
  ['where', 'round(properties["score"]) % 2 == 0'],
  ['where', 'properties["first"] + " " + properties["last"] == "Ada Lovelace"'],
  ['where', 'properties["$email"] != null', PROFILES],
  ['on', 'properties["$browser"]'],
  ['on', 'properties["plan"] + "/" + string(properties["seats"])'],
  ['on', 'boolean(properties["flag"])'],
  ['on', 'floor(number(properties["age"]) / 10) * 10'],
  ['on', 'string(datetime(properties["signup"]))'],
];

function compiled(mode: Mode, expression: string, scope: ExpressionScope): CompiledSql {
  return mode === 'where'
    ? compileWhere(expression, scope, { prefix: 'w' })
    : compileSegment(expression, scope, { prefix: 'w' });
}

function render(): string {
  return EXAMPLES.map(([mode, expression, scope]) => {
    const { sql, params } = compiled(mode, expression, scope ?? EVENTS);
    const title = `-- ${mode} ${expression}${scope === PROFILES ? '   (profiles)' : ''}`;
    return `${title}\n${formatSql(sql)}\n-- params ${JSON.stringify(params)}\n`;
  }).join('\n');
}

describe('rendered SQL', () => {
  it('matches the committed golden file', () => {
    const actual = render();
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, actual);
    expect(actual).toBe(readFileSync(GOLDEN, 'utf8'));
  });
});
