import { IDENTITY_LOOKUP_TABLE, IDENTITY_MAP_TABLE, USER_KEY_COLUMN } from '@analytics/clickhouse';
import { userEventsSql } from './resolved-events-sql';

describe('userEventsSql', () => {
  it('reads events as stored, and their stored person key, when the project has no merged id', () => {
    const { events, user } = userEventsSql('project', false, true);
    expect(user).toBe(USER_KEY_COLUMN);
    expect(events).not.toContain(IDENTITY_MAP_TABLE);
    expect(events).not.toContain(IDENTITY_LOOKUP_TABLE);
  });

  it('resolves through the lookup on one server and through the join on a cluster', () => {
    expect(userEventsSql('project', true, true)).toMatchObject({ user: 'person_key', events: expect.stringContaining(IDENTITY_LOOKUP_TABLE) });
    expect(userEventsSql('project', true, false)).toMatchObject({ user: 'distinct_id', events: expect.stringContaining(IDENTITY_MAP_TABLE) });
  });

  it('takes the join when a filter or segment reads distinct_id, which the lookup leaves as sent', () => {
    const join = userEventsSql('project', true, true, ['1', "distinct_id = {w0:String}"]);
    expect(join).toMatchObject({ user: 'distinct_id', events: expect.stringContaining(IDENTITY_MAP_TABLE) });
    // A property whose name merely contains the word is bound, not written into the SQL.
    expect(userEventsSql('project', true, true, ["JSONExtractString(properties, {w0:String})"]).user).toBe('person_key');
  });
});
