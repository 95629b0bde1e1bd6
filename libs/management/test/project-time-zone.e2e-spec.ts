import { AccountBootstrapService } from '@analytics/accounts';
import { ProjectBootstrapService } from '@analytics/projects';
import { ServiceRootModule } from '@analytics/service-map';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';

const owner = `Basic ${Buffer.from('first-owner:first-owner-secret-0001').toString('base64')}`;

interface ProjectJson {
  id: number;
  timezone: string;
  secret?: string;
}

/**
 * The project setting `timezone` (docs/queries.md, "Time zone"): set at creation or by PATCH, only
 * to a name Node and ClickHouse both know, and the reports' days follow it at once.
 */
describe('the project time zone', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  let organizationId: number;

  beforeAll(async () => {
    environment = await createTestEnvironment({
      env: {
        BOOTSTRAP_SERVICE_ACCOUNT_USERNAME: 'first-owner',
        BOOTSTRAP_SERVICE_ACCOUNT_SECRET: 'first-owner-secret-0001',
      },
    });
    service = await startTestApp((config) => ServiceRootModule.forRoot(config), environment.config);
    const created = (await service.app.get(ProjectBootstrapService).ensureDefaultProject())!;
    await service.app.get(AccountBootstrapService).ensureOwner(created.organization.id);
    organizationId = created.organization.id;
  });
  afterAll(async () => {
    await service.close();
    await environment.dispose();
  });

  const call = async (method: string, path: string, body?: object, authorization = owner) => {
    const response = await fetch(`${service.baseUrl}${path}`, {
      method,
      headers: { Authorization: authorization, 'Content-Type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { results?: ProjectJson; error?: string } };
  };
  const create = (body: object) => call('POST', `/api/app/organizations/${organizationId}/projects`, body);
  const patch = (id: number, body: object) => call('PATCH', `/api/app/projects/${id}`, body);

  it('is UTC unless given at creation, and takes any zone both engines know', async () => {
    expect((await create({ name: 'Plain' })).body.results?.timezone).toBe('UTC');
    const kolkata = await create({ name: 'Pune', timezone: 'Asia/Kolkata' });
    expect(kolkata).toMatchObject({ status: 201, body: { results: { timezone: 'Asia/Kolkata' } } });
    const id = kolkata.body.results!.id;
    expect((await patch(id, { timezone: 'America/New_York' })).body.results?.timezone).toBe('America/New_York');
    expect((await call('GET', `/api/app/projects/${id}`)).body.results?.timezone).toBe('America/New_York');
  });

  it.each([
    ['no zone at all', 'Mars/Olympus_Mons'],
    ['a name ClickHouse spells otherwise (its names are case-sensitive)', 'europe/berlin'],
    ['a zone Node knows and ClickHouse 26.7 does not yet', 'America/Coyhaique'],
    ['an offset, not a zone', '+05:30'],
    ['no string', 5],
  ])('refuses %s with a 400 in one sentence, at creation and by PATCH', async (_, timezone) => {
    const error = expect.stringMatching(/^timezone must be an IANA time zone name, such as UTC or Europe\/Berlin/);
    expect(await create({ name: 'Bad zone', timezone })).toEqual({ status: 400, body: { status: 'error', error } });
    const id = (await create({ name: 'Good zone', timezone: 'Europe/Berlin' })).body.results!.id;
    expect(await patch(id, { timezone })).toEqual({ status: 400, body: { status: 'error', error } });
    expect((await call('GET', `/api/app/projects/${id}`)).body.results?.timezone).toBe('Europe/Berlin');
  });

  it("re-buckets the reports' history at once when it changes", async () => {
    const { id, secret } = (await create({ name: 'Moving' })).body.results!;
    const basic = `Basic ${Buffer.from(`${secret}:`).toString('base64')}`;
    // 23:30 UTC on 30 March 2024: 00:30 on the 31st in Berlin.
    const imported = await fetch(`${service.baseUrl}/import?strict=1`, {
      method: 'POST',
      headers: { Authorization: basic, 'Content-Type': 'application/json' },
      body: JSON.stringify([
        { event: 'Late', properties: { time: 1_711_841_400, distinct_id: 'u1', $insert_id: 'late-1' } },
      ]),
    });
    expect(imported.status).toBe(200);
    const days = async () => {
      const answer = await fetch(
        `${service.baseUrl}/api/query/segmentation?event=Late&from_date=2024-03-30&to_date=2024-03-31`,
        { headers: { Authorization: basic } },
      );
      return ((await answer.json()) as { data: { values: { Late: Record<string, number> } } }).data.values.Late;
    };
    expect(await days()).toEqual({ '2024-03-30': 1, '2024-03-31': 0 });
    expect((await patch(id, { timezone: 'Europe/Berlin' })).status).toBe(200);
    expect(await days()).toEqual({ '2024-03-30': 0, '2024-03-31': 1 });
  });
});
