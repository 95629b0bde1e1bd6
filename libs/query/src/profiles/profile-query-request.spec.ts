import { parseProfileQuery, PROFILE_QUERY_PARAMETERS } from './profile-query-request';

const NOW = 1_732_262_400_123;
const parse = (fields: Record<string, unknown>) => parseProfileQuery(fields, NOW);

describe('parseProfileQuery', () => {
  it('defaults: user profiles, page 0 of 1000, a session at now', () => {
    expect(parse({})).toEqual({
      groupKey: '',
      cohort: undefined,
      includeAllUsers: true,
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
    expect(
      parse({
        distinct_id: 'a',
        distinct_ids: '["b","a"]',
        output_properties: ['$email'],
        data_group_id: 'company',
        page: '2',
        session_id: '1732262000000',
        page_size: 10,
      }),
    ).toMatchObject({
      groupKey: 'company',
      profileIds: ['a', 'b'],
      outputProperties: ['$email'],
      page: 2,
      pageSize: 10,
      snapshotMs: 1_732_262_000_000,
      sessionId: '1732262000000',
    });
  });

  it('reads filter_by_cohort by id (number or digits), or as raw_cohort; include_all_users defaults to true', () => {
    expect(parse({ filter_by_cohort: '{"id":3}' })).toMatchObject({ cohort: { id: 3 }, includeAllUsers: true });
    expect(parse({ filter_by_cohort: { id: '3' }, include_all_users: false })).toMatchObject({
      cohort: { id: 3 },
      includeAllUsers: false,
    });
    expect(
      parse({
        filter_by_cohort: '{"raw_cohort":{"where":"properties[\\"plan\\"] == \\"pro\\""}}',
        include_all_users: '0',
      }),
    ).toMatchObject({
      cohort: { definition: { where: 'properties["plan"] == "pro"' } },
      includeAllUsers: false,
    });
  });

  it("as_of_timestamp sets a new session's snapshot (never later than now); a session_id wins", () => {
    expect(parse({ as_of_timestamp: '1732000000' })).toMatchObject({
      snapshotMs: 1_732_000_000_000,
      sessionId: '1732000000000',
    });
    expect(parse({ as_of_timestamp: String(Math.floor(NOW / 1000) + 3600) })).toMatchObject({ snapshotMs: NOW });
    expect(parse({ as_of_timestamp: '1732000000', session_id: '1732100000000', page: '1' })).toMatchObject({
      snapshotMs: 1_732_100_000_000,
    });
  });

  it.each([
    ['a later page without its session', { page: '1' }, 'page > 0 needs the session_id of the first page'],
    ['a negative page', { page: '-1' }, 'page must be an integer from 0 to 1000000'],
    ['an empty page', { page_size: '0' }, 'page_size must be an integer from 1 to 1000'],
    ['ids that are not a list', { distinct_ids: '{"a":1}' }, 'distinct_ids must be a JSON array of strings'],
    [
      '2001 ids',
      { distinct_ids: JSON.stringify(Array.from({ length: 2001 }, (_, i) => `u${i}`)) },
      'distinct_ids may hold at most 2000 items',
    ],
    [
      'a session from the future',
      { session_id: String(NOW + 3_600_000) },
      'session_id is not one this server issued: send the session_id of the first page',
    ],
    [
      'a cohort that is not an object',
      { filter_by_cohort: '[1]' },
      'filter_by_cohort must be a JSON object such as {"id": 12}',
    ],
    [
      'a cohort id past the largest',
      { filter_by_cohort: '{"id":2147483648}' },
      'filter_by_cohort.id must be a cohort id (a positive integer)',
    ],
    [
      'a raw cohort with both kinds',
      { filter_by_cohort: { raw_cohort: { where: 'true', behavior: { event: 'e', min_count: 1, last_days: 1 } } } },
      'definition needs exactly one of',
    ],
    [
      'a raw behaviour without its counts',
      { filter_by_cohort: '{"raw_cohort":{"behavior":{"event":"e"}}}' },
      'filter_by_cohort.raw_cohort must be',
    ],
    [
      'a cohort of group profiles',
      { filter_by_cohort: '{"id":1}', data_group_id: 'company' },
      'filter_by_cohort reads user profiles',
    ],
    ['behaviors', { behaviors: '1' }, 'behaviors is not supported: save a behaviour cohort'],
    ['a fractional as_of_timestamp', { as_of_timestamp: '1.5' }, 'as_of_timestamp must be a unix time in seconds'],
    ['a where that is not text', { where: { not: 'text' } }, 'where must be a string'],
  ])('refuses %s', (_, fields, message) => {
    expect(() => parse(fields)).toThrow(message);
  });
});

describe('the profile query parameters in the OpenAPI document', () => {
  it('accepts every documented example and reads no field the document leaves out', () => {
    const read = new Set<string>();
    const examples = Object.fromEntries(
      PROFILE_QUERY_PARAMETERS.filter((p) => p.example !== undefined && p.name !== 'data_group_id').map((p) => [
        p.name,
        p.example,
      ]),
    );
    const fields = new Proxy(examples, {
      get: (target, name) => {
        if (typeof name === 'string') read.add(name);
        return target[name as string];
      },
    });
    expect(parseProfileQuery(fields, Date.UTC(2026, 0, 2))).toMatchObject({
      profileIds: ['user-42', 'user-43'],
      cohort: { id: 1 },
      pageSize: 100,
    });
    const documented = new Set(PROFILE_QUERY_PARAMETERS.map((p) => p.name));
    // `behaviors` is read only to refuse it with a 400 (docs/profiles.md).
    expect([...read].filter((name) => !documented.has(name) && name !== 'behaviors')).toEqual([]);
  });
});
