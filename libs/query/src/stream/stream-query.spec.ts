import { QueryParams } from '../http/query-params';
import { TimeZone } from '../time/time-zone';
import { encodeCursor, MAX_STREAM_IDS, parseStreamQuery } from './stream-query';

const berlin = TimeZone.of('Europe/Berlin');
const params = (query: Record<string, string>) => new QueryParams(new URLSearchParams(query), berlin);
const range = { from_date: '2024-03-04', to_date: '2024-03-05' };

describe('activity stream parameters', () => {
  it('reads the ids once each, the range in the project’s zone, a default page of 1000, and a cursor it gave', () => {
    const cursor = { timeMs: 1709546400000, event: 'Signed up', distinctId: '$device:d1', insertId: 'e1' };
    expect(
      parseStreamQuery(params({ distinct_ids: '["u1","u2","u1"]', ...range, cursor: encodeCursor(cursor) })),
    ).toEqual({ distinctIds: ['u1', 'u2'], fromDay: 19786, toDay: 19787, zone: berlin, limit: 1000, cursor });
  });

  it.each([
    [{ ...range }, 'distinct_ids is required: a JSON array of ids, as in ["user-1"]'],
    [{ distinct_ids: '[]', ...range }, 'distinct_ids is required: a JSON array of ids, as in ["user-1"]'],
    [{ distinct_ids: 'u1', ...range }, 'distinct_ids must be a JSON array of strings, as in ["Signed up","Purchase"]'],
    [
      { distinct_ids: JSON.stringify(Array.from({ length: MAX_STREAM_IDS + 1 }, (_, i) => `u${i}`)), ...range },
      'distinct_ids may hold at most 100 ids, got 101',
    ],
    [{ distinct_ids: '["u1"]' }, 'from_date is required (yyyy-mm-dd)'],
    [{ distinct_ids: '["u1"]', ...range, limit: '10001' }, 'limit must be a whole number from 1 to 10000, got "10001"'],
    [
      { distinct_ids: '["u1"]', ...range, cursor: 'not-a-cursor' },
      'cursor is not one this API gave (use next_cursor from the previous page as it is)',
    ],
    [
      { distinct_ids: '["u1"]', ...range, cursor: Buffer.from('[1,2,3,4]').toString('base64url') },
      'cursor is not one this API gave (use next_cursor from the previous page as it is)',
    ],
  ])('refuses %j: %s', (query, message) => {
    expect(() => parseStreamQuery(params(query))).toThrow(expect.objectContaining({ status: 400, message }));
  });
});
