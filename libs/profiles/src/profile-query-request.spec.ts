import { parseProfileQuery } from './profile-query-request';

const NOW = 1_732_262_400_123;
const parse = (fields: Record<string, unknown>) => parseProfileQuery(fields, NOW);

describe('parseProfileQuery', () => {
  it('defaults: user profiles, page 0 of 1000, a session at now', () => {
    expect(parse({})).toEqual({
      groupKey: '',
      profileIds: undefined,
      where: undefined,
      outputProperties: undefined,
      page: 0,
      pageSize: 1000,
      snapshotMs: NOW,
      sessionId: String(NOW),
    });
  });

  it('reads the real API parameters, lists as JSON text or as JSON body lists', () => {
    expect(parse({ distinct_id: 'a', distinct_ids: '["b","a"]', output_properties: ['$email'], data_group_id: 'company', page: '2', session_id: '1732262000000', page_size: 10 })).toMatchObject({
      groupKey: 'company',
      profileIds: ['a', 'b'],
      outputProperties: ['$email'],
      page: 2,
      pageSize: 10,
      snapshotMs: 1_732_262_000_000,
      sessionId: '1732262000000',
    });
  });

  it.each([
    ['a later page without its session', { page: '1' }, 'page > 0 needs the session_id of the first page'],
    ['a negative page', { page: '-1' }, 'page must be an integer from 0 to 1000000'],
    ['an empty page', { page_size: '0' }, 'page_size must be an integer from 1 to 1000'],
    ['ids that are not a list', { distinct_ids: '{"a":1}' }, 'distinct_ids must be a JSON array of strings'],
    ['2001 ids', { distinct_ids: JSON.stringify(Array.from({ length: 2001 }, (_, i) => `u${i}`)) }, 'distinct_ids may hold at most 2000 items'],
    ['a session from the future', { session_id: String(NOW + 3_600_000) }, 'session_id is not one this server issued: send the session_id of the first page'],
    ['filter_by_cohort', { filter_by_cohort: '{"id":1}' }, 'filter_by_cohort is not supported yet'],
    ['behaviors', { behaviors: '1' }, 'behaviors is not supported yet'],
    ['a where that is not text', { where: { not: 'text' } }, 'where must be a string'],
  ])('refuses %s', (_, fields, message) => {
    expect(() => parse(fields)).toThrow(message);
  });
});
