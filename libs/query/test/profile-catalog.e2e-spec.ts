import { ProjectsService } from '@analytics/projects';
import { ServiceRootModule } from '@analytics/service-map';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';

const basic = (secret: string) => `Basic ${Buffer.from(`${secret}:`).toString('base64')}`;

interface Project {
  id: number;
  token: string;
  authorization: string;
}

/**
 * What the ETL connectors read beside the reports: the user profiles' property catalog, the revenue
 * of their `$transactions`, every event's top properties and the annotations' older path; each
 * scoped to its project, user profiles only, bad input a 400 in the query API's shape.
 */
describe('the profile catalog, revenue and the connectors’ other reads', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  let main: Project;
  let other: Project;

  const call = async (path: string, project: Project, init: RequestInit = {}) => {
    const response = await fetch(`${service.baseUrl}${path}`, {
      ...init,
      headers: { Authorization: project.authorization, ...(init.headers as Record<string, string>) },
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const engage = async (path: string, project: Project, records: object[]) => {
    const data = encodeURIComponent(JSON.stringify(records.map((record) => ({ $token: project.token, ...record }))));
    const answer = await call(`${path}?verbose=1`, project, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `data=${data}`,
    });
    expect(answer.body).toEqual({ error: null, status: 1 });
  };
  const charge = (id: string, amount: number, time?: string) => ({
    $distinct_id: id,
    $append: { $transactions: time === undefined ? { $amount: amount } : { $amount: amount, $time: time } },
  });

  beforeAll(async () => {
    environment = await createTestEnvironment({
      env: { QUERY_LIMIT_PER_HOUR: '100000', QUERY_LIMIT_PER_SECOND: '1000' },
    });
    service = await startTestApp((config) => ServiceRootModule.forRoot(config), environment.config);
    const projects = service.app.get(ProjectsService);
    const organization = await projects.createOrganization('Catalog');
    const open = async (name: string): Promise<Project> => {
      const created = await projects.createProject(organization.id, name);
      return { id: created.project.id, token: created.project.token, authorization: basic(created.secret) };
    };
    [main, other] = [await open('Main'), await open('Other')];

    await engage('/engage', main, [
      { $distinct_id: 'a', $set: { plan: 'pro', seats: 3, beta: true, tags: ['x'] } },
      { $distinct_id: 'b', $set: { plan: 'free' } },
      { $distinct_id: 'c', $set: { nested: { k: 1 } } },
      // Monday 2024-03-04 and Wednesday 2024-03-06 are one week; Monday 2024-03-11 the next.
      charge('a', 10, '2024-03-04T09:00:00'),
      charge('a', 2.5, '2024-03-06T23:59:59.500Z'),
      charge('b', 7, '2024-03-11T00:00:00'),
      charge('b', 100, '2024-02-20T00:00:00'),
      charge('c', 50),
    ]);
    expect(
      (
        await call(`/api/app/projects/${main.id}/group-keys`, main, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: 'company' }),
        })
      ).status,
    ).toBe(201);
    await engage('/groups', main, [
      {
        $group_key: 'company',
        $group_id: 'acme',
        $set: { plan: 'enterprise', $transactions: [{ $amount: 999, $time: '2024-03-05T00:00:00' }] },
      },
    ]);
    await engage('/engage', other, [
      { $distinct_id: 'z', $set: { secret_plan: 'x' } },
      charge('z', 1000, '2024-03-05T00:00:00'),
    ]);
    const at = (iso: string) => Date.parse(iso) / 1000;
    const now = Math.floor(Date.now() / 1000) - 3600;
    const imported = await call('/import?strict=1', main, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify([
        { event: 'Opened', properties: { time: now, distinct_id: 'a', $insert_id: 'o1', screen: 'home', $os: 'iOS' } },
        { event: 'Opened', properties: { time: now, distinct_id: 'b', $insert_id: 'o2', screen: 'home' } },
        { event: 'Paid', properties: { time: now, distinct_id: 'a', $insert_id: 'p1', amount: 3 } },
        {
          event: 'Old',
          properties: { time: at('2020-01-01T00:00:00Z'), distinct_id: 'a', $insert_id: 'x1', ancient: 1 },
        },
      ]),
    });
    expect(imported.status).toBe(200);
    await call(`/api/app/projects/${main.id}/annotations`, main, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ date: '2024-03-05 08:00:00', description: 'in range' }),
    });
    await call(`/api/app/projects/${main.id}/annotations`, main, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ date: '2024-04-01 08:00:00', description: 'later' }),
    });
  });
  afterAll(async () => {
    await service?.close();
    await environment?.dispose();
  });

  it('names the user profiles’ properties with counts and types, most used first, within the limit', async () => {
    const { status, body } = await call('/api/2.0/engage/properties', main);
    expect(status).toBe(200);
    expect(body).toEqual({ computed_at: expect.any(String), results: expect.any(Object), status: 'ok' });
    expect(body.results).toMatchObject({
      plan: { count: 2, type: 'string' },
      seats: { count: 1, type: 'number' },
      beta: { count: 1, type: 'boolean' },
      tags: { count: 1, type: 'list' },
      nested: { count: 1, type: 'object' },
      $created: { count: 3, type: 'datetime' },
      $last_seen: { count: 3, type: 'datetime' },
      $transactions: { count: 3, type: 'list' },
    });
    expect(body.results).not.toHaveProperty('secret_plan');
    const counts = Object.values(body.results as Record<string, { count: number }>).map((entry) => entry.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const limited = await call('/api/query/engage/properties?limit=1', main);
    expect(Object.keys(limited.body.results)).toHaveLength(1);
    expect(await call('/api/2.0/engage/properties?limit=0', main)).toEqual({
      status: 400,
      body: {
        request: '/api/2.0/engage/properties?limit=0',
        error: 'limit must be a whole number from 1 to 10000, got "0"',
      },
    });
  });

  it('sums the $transactions of user profiles per bucket and over the range, every bucket listed', async () => {
    const daily = await call('/api/2.0/engage/revenue?from_date=2024-03-04&to_date=2024-03-11', main);
    expect(daily.status).toBe(200);
    const results = daily.body.results;
    expect(Object.keys(results)).toEqual([
      '$overall',
      ...Array.from({ length: 8 }, (_, i) => `2024-03-${String(4 + i).padStart(2, '0')}`),
    ]);
    // Three profiles in the project, group profiles and the other project's apart; c's charge has no time.
    expect(results.$overall).toEqual({ amount: 19.5, count: 3, paid_count: 2 });
    expect(results['2024-03-04']).toEqual({ amount: 10, count: 3, paid_count: 1 });
    expect(results['2024-03-05']).toEqual({ amount: 0, count: 3, paid_count: 0 });
    expect(results['2024-03-06']).toEqual({ amount: 2.5, count: 3, paid_count: 1 });

    const weekly = await call('/api/2.0/engage/revenue', main, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ from_date: '2024-03-04', to_date: '2024-03-17', unit: 'week' }),
    });
    expect(weekly.body.results).toEqual({
      $overall: { amount: 19.5, count: 3, paid_count: 2 },
      '2024-03-04': { amount: 12.5, count: 3, paid_count: 1 },
      '2024-03-11': { amount: 7, count: 3, paid_count: 1 },
    });
  });

  it.each([
    ['', 'from_date is required (yyyy-mm-dd)'],
    ['from_date=2024-03-04', 'to_date is required (yyyy-mm-dd)'],
    ['from_date=2024-03-05&to_date=2024-03-04', 'from_date 2024-03-05 is after to_date 2024-03-04'],
    ['from_date=2024-03-04&to_date=2024-03-05&unit=year', 'unit must be one of day, week, month, got "year"'],
    ['from_date=2024-03-04&to_date=2024-03-05&unit=day&interval=2', 'give either interval or unit, not both'],
  ])('refuses revenue with %s: 400 in the query API’s shape', async (query, error) => {
    const path = `/api/2.0/engage/revenue${query ? `?${query}` : ''}`;
    expect(await call(path, main)).toEqual({ status: 400, body: { request: path, error } });
  });

  it('lists every event’s top properties of the last 31 days without `event`', async () => {
    const top = await call('/api/2.0/events/properties/top?limit=2000', main);
    expect(top.status).toBe(200);
    expect(top.body).toMatchObject({ screen: { count: 2 }, amount: { count: 1 }, $os: { count: 1 } });
    expect(top.body).not.toHaveProperty('ancient');
    expect((await call('/api/2.0/events/properties/top?event=Paid', main)).body).not.toHaveProperty('screen');
  });

  it('answers the annotations’ older path for the credentials’ project, in the legacy shape', async () => {
    const all = await call('/api/2.0/annotations', main);
    expect(all).toEqual({
      status: 200,
      body: {
        annotations: [
          { id: expect.any(Number), project_id: main.id, date: '2024-03-05 08:00:00', description: 'in range' },
          { id: expect.any(Number), project_id: main.id, date: '2024-04-01 08:00:00', description: 'later' },
        ],
        error: false,
      },
    });
    const ranged = await call('/api/2.0/annotations?from_date=2024-03-01&to_date=2024-03-31', main);
    expect(ranged.body.annotations.map((a: { description: string }) => a.description)).toEqual(['in range']);
    expect((await call('/api/2.0/annotations', other)).body).toEqual({ annotations: [], error: false });
    expect(await call('/api/2.0/annotations?from_date=March', main)).toEqual({
      status: 400,
      body: {
        request: '/api/2.0/annotations?from_date=March',
        error: 'from_date must be a date as YYYY-MM-DD HH:mm:ss or YYYY-MM-DD (UTC), got "March"',
      },
    });
  });
});
