import { chSql, projectScope, renderChSql } from '@analytics/tenancy';
import { ServiceAccountsService } from '@analytics/accounts';
import { ClickHouseClient } from '@analytics/clickhouse';
import { AppConfig } from '@analytics/config';
import { IngestModule } from '@analytics/ingest';
import { ProjectsModule, ProjectsService } from '@analytics/projects';
import { SavedReportsModule } from '@analytics/reports';
import { PlatformModule } from '@analytics/runtime';
import { engineNeeds, intakeOf } from '@analytics/service-map';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';
import { DynamicModule } from '@nestjs/common';
import { QueryModule } from '../src';
import { CohortMembership } from '../src/cohorts/cohort-membership';

function ingestReportsAndQueries(config: AppConfig): DynamicModule {
  return {
    module: class QueryTestModule {},
    imports: [
      PlatformModule.forRoot(config, engineNeeds(config, ['ingest', 'query', 'management'])),
      ProjectsModule,
      IngestModule.forRoot(intakeOf(config)),
      SavedReportsModule,
      QueryModule,
    ],
  };
}

const basic = (user: string, password = '') => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const at = (iso: string) => Date.parse(iso) / 1000;

/** Sets the query limits for the app built inside `run` (the module reads them from the environment). */
describe('query API and saved reports, through HTTP', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  let projectId: number;
  let secret: string;
  let analyst: string;
  let consumer: string;

  const call = (path: string, init: RequestInit & { auth?: string } = {}) =>
    fetch(`${service.baseUrl}${path}`, {
      ...init,
      headers: { Authorization: init.auth ?? basic(secret), 'Content-Type': 'application/json', ...init.headers },
    });
  const json = async (path: string, init: RequestInit & { auth?: string } = {}, status = 200) => {
    const response = await call(path, init);
    const body = (await response.json()) as Record<string, unknown>;
    expect({ status: response.status, body }).toMatchObject({ status });
    return body;
  };
  const app = (path: string) => `/api/app/projects/${projectId}${path}`;

  beforeAll(async () => {
    environment = await createTestEnvironment({
      env: { QUERY_LIMIT_PER_SECOND: '1000', QUERY_LIMIT_PER_HOUR: '100000' },
    });
    service = await startTestApp(ingestReportsAndQueries, environment.config);
    const projects = service.app.get(ProjectsService);
    const organization = await projects.createOrganization('Queries');
    const created = await projects.createProject(organization.id, 'Main');
    projectId = created.project.id;
    secret = created.secret;
    const accounts = service.app.get(ServiceAccountsService);
    for (const role of ['analyst', 'consumer'] as const) {
      const { view, secret: password } = await accounts.create(organization.id, null, {
        username: role,
        role,
        projects: [{ id: projectId, role }],
      });
      if (role === 'analyst') analyst = basic(view.account.username, password);
      else consumer = basic(view.account.username, password);
    }
    const events = [
      ['Signed up', '2024-03-04T10:00:00Z', 'u1', { plan: 'pro' }],
      ['Purchased', '2024-03-04T10:30:00Z', 'u1', { amount: 30 }],
      ['Signed up', '2024-03-04T11:00:00Z', 'u2', { plan: 'free' }],
      ['Purchased', '2024-03-06T11:00:00Z', 'u2', { amount: 10 }],
      ['Signed up', '2024-03-05T09:00:00Z', 'u3', { plan: 'pro' }],
    ].map(([event, time, user, properties], i) => ({
      event,
      properties: { time: at(time as string), distinct_id: user, $insert_id: `e${i}`, ...(properties as object) },
    }));
    const imported = await call('/import?strict=1', { method: 'POST', body: JSON.stringify(events) });
    expect(imported.status).toBe(200);
  });
  afterAll(async () => {
    await service?.close();
    await environment?.dispose();
  });

  it('saves a funnel (analyst), refuses a consumer and a bad expression, and lists it on both APIs', async () => {
    const definition = {
      name: 'Signup to purchase',
      steps: [{ event: 'Signed up' }, { event: 'Purchased', label: 'Bought' }],
      length: 1,
      length_unit: 'day',
    };
    const refused = await json(
      app('/funnels'),
      { method: 'POST', body: JSON.stringify(definition), auth: consumer },
      403,
    );
    expect(refused).toMatchObject({ status: 'error' });
    const bad = await json(
      app('/funnels'),
      { method: 'POST', body: JSON.stringify({ ...definition, where: 'properties["plan"] ==' }), auth: analyst },
      400,
    );
    expect(bad).toEqual({ status: 'error', error: expect.stringMatching(/^where: at position \d+: expected/) });
    const created = await json(
      app('/funnels'),
      { method: 'POST', body: JSON.stringify(definition), auth: analyst },
      201,
    );
    expect(created).toMatchObject({
      status: 'ok',
      results: { funnel_id: expect.any(Number), name: 'Signup to purchase', length: 1, length_unit: 'day' },
    });
    const funnelId = (created.results as { funnel_id: number }).funnel_id;
    const patched = await json(app(`/funnels/${funnelId}`), {
      method: 'PATCH',
      body: JSON.stringify({ length: 2 }),
      auth: analyst,
    });
    expect(patched).toMatchObject({
      results: { funnel_id: funnelId, length: 2, length_unit: 'day', steps: definition.steps },
    });
    expect(await json(`/api/query/funnels/list?project_id=${projectId}`, { auth: consumer })).toEqual([
      { funnel_id: funnelId, name: 'Signup to purchase' },
    ]);
  });

  it('answers a funnel under both prefixes, with a trailing slash and unknown parameters ignored', async () => {
    const { funnel_id: funnelId } = ((await json(app('/funnels'))).results as { funnel_id: number }[])[0];
    const query = `funnel_id=${funnelId}&from_date=2024-03-04&to_date=2024-03-05&_=123`;
    const result = await json(`/api/query/funnels?${query}`);
    expect(result).toMatchObject({
      meta: { dates: ['2024-03-04', '2024-03-05'] },
      data: {
        '2024-03-04': {
          steps: [
            { count: 2, goal: 'Signed up' },
            { count: 2, avg_time: (1800 + 172800) / 2, step_label: 'Bought' },
          ],
          analysis: { completion: 2 },
        },
        '2024-03-05': { steps: [{ count: 1 }, { count: 0 }] },
      },
    });
    expect(await json(`/api/2.0/funnels/?${query}`)).toEqual(result);
    const windowed = await json(
      `/api/query/funnels?${query}&length=1&length_unit=hour&on=${encodeURIComponent('properties["plan"]')}`,
    );
    expect(windowed).toMatchObject({
      data: {
        '2024-03-04': {
          $overall: { steps: [{ count: 2 }, { count: 1 }] },
          pro: { steps: [{ count: 1 }, { count: 1 }] },
          free: { steps: [{ count: 1 }, { count: 0 }] },
        },
      },
    });
  });

  it('computes an unsaved funnel (params) as the saved one would, with the query’s overrides, and refuses a broken one in words', async () => {
    const steps = [{ event: 'Signed up' }, { event: 'Purchased', label: 'Bought' }];
    const funnel = (definition: unknown, extra = '') =>
      `/api/query/funnels?project_id=${projectId}&from_date=2024-03-04&to_date=2024-03-05${extra}&params=${encodeURIComponent(JSON.stringify(definition))}`;
    const result = await json(funnel({ steps, length: 2, length_unit: 'day' }), { auth: consumer });
    expect(result).toMatchObject({
      data: {
        '2024-03-04': { steps: [{ count: 2 }, { count: 2, step_label: 'Bought' }] },
        '2024-03-05': { steps: [{ count: 1 }, { count: 0 }] },
      },
    });
    // The saved funnel of the test above (2 days since its PATCH) answers the same.
    const { funnel_id: funnelId } = ((await json(app('/funnels'))).results as { funnel_id: number }[])[0];
    expect(
      await json(
        `/api/query/funnels?project_id=${projectId}&funnel_id=${funnelId}&from_date=2024-03-04&to_date=2024-03-05`,
      ),
    ).toEqual(result);
    const segmented = await json(
      funnel({ steps, length: 1, length_unit: 'hour' }, `&on=${encodeURIComponent('properties["plan"]')}`),
      { auth: consumer },
    );
    expect(segmented).toMatchObject({
      data: {
        '2024-03-04': { pro: { steps: [{ count: 1 }, { count: 1 }] }, free: { steps: [{ count: 1 }, { count: 0 }] } },
      },
    });
    const refusals = await Promise.all([
      json(funnel({ steps: steps.slice(0, 1), length: 1, length_unit: 'day' }), { auth: consumer }, 400),
      json(funnel({ steps, length: 1, length_unit: 'week' }), { auth: consumer }, 400),
      json(funnel({ steps, length: 1, length_unit: 'day', where: 'properties["plan"] ==' }), { auth: consumer }, 400),
      json(funnel({ steps, length: 1, length_unit: 'day', name: 'x' }), { auth: consumer }, 400),
      json(`/api/query/funnels?project_id=${projectId}&from_date=2024-03-04&to_date=2024-03-05&params=%5B%5D`, {}, 400),
    ]);
    expect(refusals.map((body) => body.error)).toEqual([
      'steps must hold 2 to 20 steps',
      expect.stringMatching(/^params: length_unit must be one of the following values: second, minute, hour, day/),
      expect.stringMatching(/^where: at position \d+: expected/),
      'params: property name should not exist',
      'params must be a JSON object: a funnel definition (steps, length, length_unit, where)',
    ]);
  });

  it('answers errors in the query shape: unknown funnel 404, bad parameter 400', async () => {
    const missing = await call(`/api/query/funnels?funnel_id=999999&from_date=2024-03-04&to_date=2024-03-04`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      request: '/api/query/funnels?funnel_id=999999&from_date=2024-03-04&to_date=2024-03-04',
      error: 'funnel 999999 not found in this project',
    });
    const bad = await json(
      `/api/query/segmentation?event=x&from_date=2024-03-04&to_date=2024-03-04&where=${encodeURIComponent('1 +')}`,
      {},
      400,
    );
    expect(bad).toMatchObject({ error: expect.stringMatching(/^where: at position/) });
  });

  it('answers retention, segmentation and the event catalog', async () => {
    const retention = await json(
      '/api/query/retention?from_date=2024-03-04&to_date=2024-03-04&born_event=Signed%20up&event=Purchased&interval_count=2',
    );
    expect(retention).toEqual({ '2024-03-04': { counts: [1, 0, 1], first: 2 } });
    const addiction = await json(
      '/api/query/retention/addiction?from_date=2024-03-04&to_date=2024-03-04&unit=day&addiction_unit=hour&event=Signed%20up',
    );
    expect(addiction).toEqual({ data: { '2024-03-04': [2, ...Array.from({ length: 23 }, () => 0)] } });
    const segmentation = await json(
      '/api/2.0/segmentation/?event=Signed%20up&from_date=2024-03-04&to_date=2024-03-05&on=properties%5B%22plan%22%5D',
    );
    expect(segmentation).toEqual({
      data: {
        series: ['2024-03-04', '2024-03-05'],
        values: { pro: { '2024-03-04': 1, '2024-03-05': 1 }, free: { '2024-03-04': 1, '2024-03-05': 0 } },
      },
      legend_size: 2,
    });
    const sum = await json(
      '/api/query/segmentation/sum?event=Purchased&from_date=2024-03-04&to_date=2024-03-06&on=properties%5B%22amount%22%5D',
    );
    expect(sum).toMatchObject({ status: 'ok', results: { '2024-03-04': 30, '2024-03-05': 0, '2024-03-06': 10 } });
    const events = await json(
      `/api/query/events?event=${encodeURIComponent('["Signed up","Purchased"]')}&type=unique&unit=day&from_date=2024-03-04&to_date=2024-03-04`,
    );
    expect(events).toEqual({
      data: { series: ['2024-03-04'], values: { 'Signed up': { '2024-03-04': 2 }, Purchased: { '2024-03-04': 1 } } },
      legend_size: 2,
    });
  });

  it('computes a saved insights report by bookmark_id', async () => {
    const params = {
      events: [
        { event: 'Signed up', math: 'unique' },
        { event: 'Purchased', math: 'sum', property: 'amount' },
      ],
      from_date: '2024-03-04',
      to_date: '2024-03-06',
      unit: 'day',
    };
    const created = await json(
      app('/bookmarks'),
      { method: 'POST', body: JSON.stringify({ name: 'Weekly', params }), auth: analyst },
      201,
    );
    const bookmarkId = (created.results as { id: number }).id;
    const report = await json(`/api/query/insights?project_id=${projectId}&bookmark_id=${bookmarkId}`, {
      auth: consumer,
    });
    expect(report).toMatchObject({
      computed_at: expect.stringMatching(/\+00:00$/),
      date_range: { from_date: '2024-03-04T00:00:00+00:00', to_date: '2024-03-06T23:59:59.999000+00:00' },
      headers: ['$event'],
      series: {
        'Signed up': { '2024-03-04T00:00:00+00:00': 2, '2024-03-05T00:00:00+00:00': 1, '2024-03-06T00:00:00+00:00': 0 },
        Purchased: { '2024-03-04T00:00:00+00:00': 30, '2024-03-05T00:00:00+00:00': 0, '2024-03-06T00:00:00+00:00': 10 },
      },
    });
  });

  it('computes an unsaved definition (params) as the saved one, and refuses a broken one in words', async () => {
    const params = {
      events: [
        { event: 'Signed up', math: 'unique' },
        { event: 'Purchased', math: 'sum', property: 'amount' },
      ],
      from_date: '2024-03-04',
      to_date: '2024-03-06',
      unit: 'day',
    };
    const insights = (query: Record<string, unknown>) =>
      `/api/query/insights?project_id=${projectId}&params=${encodeURIComponent(JSON.stringify(query))}`;
    const report = await json(insights(params), { auth: consumer });
    expect(report.series).toEqual({
      'Signed up': { '2024-03-04T00:00:00+00:00': 2, '2024-03-05T00:00:00+00:00': 1, '2024-03-06T00:00:00+00:00': 0 },
      Purchased: { '2024-03-04T00:00:00+00:00': 30, '2024-03-05T00:00:00+00:00': 0, '2024-03-06T00:00:00+00:00': 10 },
    });
    const refusals = await Promise.all([
      json(insights({ ...params, events: [{ event: 'Signed up', math: 'mode' }] }), { auth: consumer }, 400),
      json(insights({ ...params, unit: 'day', colour: 'red' }), { auth: consumer }, 400),
      json(insights({ ...params, from_date: '2024-03-09' }), { auth: consumer }, 400),
      json(`/api/query/insights?project_id=${projectId}&params=%5B1%5D`, { auth: consumer }, 400),
    ]);
    expect(refusals.map((body) => body.error)).toEqual([
      expect.stringMatching(/^params: events\.0\.math must be one of the following values: total, unique/),
      'params: property colour should not exist',
      expect.stringContaining('from_date'),
      'params must be a JSON object: an insights definition, as a saved report holds',
    ]);
  });

  it('lists cohorts with their current size (POST with a form body, or GET)', async () => {
    const definition = { behavior: { event: 'Signed up', min_count: 1, last_days: 3650 } };
    await json(
      app('/cohorts'),
      {
        method: 'POST',
        body: JSON.stringify({ name: 'Signed up', description: 'everyone', definition }),
        auth: analyst,
      },
      201,
    );
    await json(
      app('/cohorts'),
      {
        method: 'POST',
        body: JSON.stringify({ name: 'Both', definition: { where: 'x', behavior: definition.behavior } }),
        auth: analyst,
      },
      400,
    );
    const form = await call('/api/query/cohorts/list', {
      method: 'POST',
      body: `project_id=${projectId}`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      auth: consumer,
    });
    expect(form.status).toBe(200);
    const list = (await form.json()) as object[];
    expect(list).toEqual([
      {
        count: 3,
        is_visible: 1,
        description: 'everyone',
        created: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        project_id: projectId,
        id: expect.any(Number),
        name: 'Signed up',
      },
    ]);
    expect(await json(`/api/2.0/cohorts/list?project_id=${projectId}`, { auth: consumer })).toEqual(list);
  });

  it('counts profile cohorts on the profiles mirror, and gives the profile query a membership subquery', async () => {
    const clickhouse = service.app.get<ClickHouseClient>(ClickHouseClient);
    const profile = (id: string, properties: object, version = 1, deleted = 0) => ({
      project_id: projectId,
      group_key: '',
      profile_id: id,
      properties: JSON.stringify(properties),
      version,
      is_deleted: deleted,
      created_at: '2024-03-01 00:00:00.000',
      updated_at: '2024-03-01 00:00:00.000',
    });
    const values = [
      profile('u1', { plan: 'pro' }),
      profile('u2', { plan: 'free' }),
      profile('u3', { plan: 'pro' }),
      profile('u3', {}, 2, 1),
    ];
    await clickhouse.insert({ table: 'profiles', values, format: 'JSONEachRow' });
    const created = await json(
      app('/cohorts'),
      {
        method: 'POST',
        body: JSON.stringify({ name: 'Pro', definition: { where: 'properties["plan"] == "pro"' } }),
        auth: analyst,
      },
      201,
    );
    const id = (created.results as { id: number }).id;
    const list = (await json(`/api/query/cohorts/list`)) as unknown as { id: number; count: number }[];
    expect(list.find((cohort) => cohort.id === id)?.count).toBe(1);
    const members = await service.app.get(CohortMembership).membersQuery(projectScope(projectId), id);
    const { sql, params } = renderChSql(
      chSql`SELECT DISTINCT distinct_id FROM events WHERE distinct_id IN (${members})`,
    );
    const result = await clickhouse.query({ query: sql, query_params: params, format: 'JSONEachRow' });
    expect(await result.json()).toEqual([{ distinct_id: 'u1' }]);
  });
});

describe('query API limits', () => {
  it('answers 429 with Retry-After past 3 queries a second (the default), per project', async () => {
    const environment = await createTestEnvironment();
    const service = await startTestApp(ingestReportsAndQueries, environment.config);
    try {
      const projects = service.app.get(ProjectsService);
      const organization = await projects.createOrganization('Limits');
      const { secret } = await projects.createProject(organization.id, 'P');
      const other = await projects.createProject(organization.id, 'Q');
      const get = (key = secret) =>
        fetch(`${service.baseUrl}/api/query/events/names`, { headers: { Authorization: basic(key) } });
      // Sent together, so that all four fall in one second however slow the machine answers each.
      const answers = await Promise.all([get(), get(), get(), get()]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 429]);
      const limited = answers.find((answer) => answer.status === 429)!;
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await limited.json()).toEqual({
        request: '/api/query/events/names',
        error: expect.stringContaining('rate limit exceeded'),
      });
      expect((await get(other.secret)).status).toBe(200);
    } finally {
      await service.close();
      await environment.dispose();
    }
  });
});
