import { IDENTITY_LOOKUP_TABLE, IDENTITY_MAP_TABLE } from '@analytics/clickhouse';
import { projectScope, renderChSql } from '@analytics/tenancy';
import { USER_KEY_COLUMN } from './events-table';
import { userEventsSql } from './resolved-events-sql';

const scope = projectScope(1);
/** The source's SQL alone (without the project predicate when the reader's WHERE holds it). */
const text = ({ events, user }: ReturnType<typeof userEventsSql>) => ({
  events: renderChSql(events, { acrossProjects: 'a fragment read alone' }).sql,
  user,
});

describe('userEventsSql', () => {
  it('reads events as stored, and their stored person key, when the project has no merged id', () => {
    const { events, user } = text(userEventsSql(scope, false, true));
    expect(user).toBe(USER_KEY_COLUMN);
    expect(events).not.toContain(IDENTITY_MAP_TABLE);
    expect(events).not.toContain(IDENTITY_LOOKUP_TABLE);
  });

  it('resolves through the lookup on one server and through the join on a cluster', () => {
    expect(text(userEventsSql(scope, true, true))).toMatchObject({
      user: 'person_key',
      events: expect.stringContaining(IDENTITY_LOOKUP_TABLE),
    });
    expect(text(userEventsSql(scope, true, false))).toMatchObject({
      user: 'distinct_id',
      events: expect.stringContaining(IDENTITY_MAP_TABLE),
    });
  });

  it('takes the join when a filter or segment reads distinct_id, which the lookup leaves as sent', () => {
    const join = text(userEventsSql(scope, true, true, ['1', 'distinct_id = {w0:String}']));
    expect(join).toMatchObject({ user: 'distinct_id', events: expect.stringContaining(IDENTITY_MAP_TABLE) });
    // A property whose name merely contains the word is bound, not written into the SQL.
    expect(userEventsSql(scope, true, true, ['JSONExtractString(properties, {w0:String})']).user).toBe('person_key');
  });
});
