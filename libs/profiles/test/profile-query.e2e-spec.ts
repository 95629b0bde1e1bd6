import { ProfilesHarness, startProfilesHarness, TestProject } from './profiles-harness';

describe('the profile query (/api/query/engage)', () => {
  let h: ProfilesHarness;
  let project: TestProject;

  const ids = (n: number) => Array.from({ length: n }, (_, i) => `user-${String(i).padStart(3, '0')}`);
  const setRecords = (profileIds: string[], properties: (i: number) => object) =>
    profileIds.map((id, i) => ({ $token: project.token, $distinct_id: id, $set: properties(i) }));

  beforeAll(async () => {
    h = await startProfilesHarness();
    project = await h.createProject('Query');
    const sent = await h.send(
      'engage',
      setRecords(ids(25), (i) => ({ n: i, plan: i % 3 === 0 ? 'pro' : 'free', $email: `u${i}@example.com` })),
    );
    expect(sent.text).toBe('1');
  });
  afterAll(() => h?.close());

  it('answers the real API shape, profiles in distinct-id order, page_size 1000 by default', async () => {
    const { status, body } = await h.query({}, project);
    expect(status).toBe(200);
    expect(body).toEqual({
      page: 0,
      page_size: 1000,
      session_id: expect.stringMatching(/^\d+$/),
      status: 'ok',
      total: 25,
      results: expect.any(Array),
    });
    expect(body.results.map((r) => r.$distinct_id)).toEqual(ids(25));
    expect(body.results[4]).toEqual({
      $distinct_id: 'user-004',
      $properties: {
        n: 4,
        plan: 'free',
        $email: 'u4@example.com',
        $created: expect.any(String),
        $last_seen: expect.any(String),
      },
    });
  });

  it('pages are disjoint and stable: profiles created during the session never shift them', async () => {
    const first = await h.query({ page_size: '10' }, project);
    expect(first.body.results.map((r) => r.$distinct_id)).toEqual(ids(10));
    // A profile that sorts first, created after page 0: it belongs to no page of this session.
    await h.send(
      'engage',
      setRecords(['user-000a', 'aaa-new'], () => ({ late: true })),
    );
    const session = first.body.session_id;
    const second = await h.query({ page_size: '10', page: '1', session_id: session }, project);
    const third = await h.query({ page_size: '10', page: '2', session_id: session }, project);
    expect(second.body).toMatchObject({ page: 1, page_size: 10, session_id: session, total: 25 });
    expect([...first.body.results, ...second.body.results, ...third.body.results].map((r) => r.$distinct_id)).toEqual(
      ids(25),
    );
    // A new session sees them.
    expect((await h.query({}, project)).body.total).toBe(27);
  });

  it('filters by distinct_id and distinct_ids, and keeps only output_properties', async () => {
    const { body } = await h.query(
      {
        distinct_id: 'user-001',
        distinct_ids: JSON.stringify(['user-002', 'nobody']),
        output_properties: JSON.stringify(['plan', 'missing']),
      },
      project,
    );
    expect(body.results).toEqual([
      { $distinct_id: 'user-001', $properties: { plan: 'free' } },
      { $distinct_id: 'user-002', $properties: { plan: 'free' } },
    ]);
    expect(body.total).toBe(2);
  });

  it('filters with where, compiled with bound parameters', async () => {
    const { status, body } = await h.query(
      { where: 'properties["plan"] == "pro" and properties["n"] >= 10', output_properties: '["n"]' },
      project,
    );
    expect(status).toBe(200);
    expect(body.results).toEqual([12, 15, 18, 21, 24].map((n) => ({ $distinct_id: `user-0${n}`, $properties: { n } })));
    const injection = await h.query({ where: 'properties["plan"] == "x\') OR 1=1 --"' }, project);
    expect(injection.body.total).toBe(0);
  });

  it('answers under /api/2.0/engage and with GET query parameters too', async () => {
    const get = await fetch(`${h.app.baseUrl}/api/2.0/engage?project_id=${project.id}&distinct_id=user-003`, {
      headers: { Authorization: project.basic },
    });
    expect(get.status).toBe(200);
    expect(((await get.json()) as { results: { $distinct_id: string }[] }).results.map((r) => r.$distinct_id)).toEqual([
      'user-003',
    ]);
  });

  it.each([
    [{ page: '1' }, 'page > 0 needs the session_id of the first page'],
    [{ filter_by_cohort: '{"id": 0}' }, 'filter_by_cohort.id must be a cohort id (a positive integer)'],
    [{ page_size: '1001' }, 'page_size must be an integer from 1 to 1000'],
    [{ distinct_ids: 'user-1' }, 'distinct_ids must be a JSON array of strings'],
    [{ session_id: 'abc' }, 'session_id is not one this server issued: send the session_id of the first page'],
    [{ where: 'properties["plan"] ==' }, expect.stringMatching(/^where: at position \d+: expected/)],
  ])('refuses %j with 400', async (fields, error) => {
    const { status, body } = await h.query(fields as Record<string, string>, project);
    expect(status).toBe(400);
    expect(body).toEqual({ request: `/api/query/engage?project_id=${project.id}`, error });
  });

  it('reads only the project of the credentials', async () => {
    const { body } = await h.query({}, h.project);
    expect(body.results.some((r) => r.$distinct_id.startsWith('user-'))).toBe(false);
    const foreign = await fetch(`${h.app.baseUrl}/api/query/engage?project_id=${h.project.id}`, {
      method: 'POST',
      headers: { Authorization: project.basic },
    });
    expect(foreign.status).toBe(403);
  });
});
