import { AppConfig, loadConfig } from '@analytics/config';
import { ProjectsModule, ProjectsService } from '@analytics/projects';
import { SavedReportsModule } from '@analytics/reports';
import { PlatformModule } from '@analytics/runtime';
import { engineNeeds, servicesModule } from '@analytics/service-map';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';
import { DynamicModule } from '@nestjs/common';
import { Random } from '../../query/test/support/random';
import { QueryAnswer } from './profiles-harness';

const DAY_MS = 86_400_000;
const basic = (secret: string) => `Basic ${Buffer.from(`${secret}:`).toString('base64')}`;

function cohortsApp(config: AppConfig): DynamicModule {
  return {
    module: class CohortMembersTestModule {},
    imports: [
      PlatformModule.forRoot(config, engineNeeds(config, ['ingest', 'query', 'management'])),
      ProjectsModule,
      servicesModule(config, ['ingest', 'query']),
      SavedReportsModule,
    ],
  };
}

interface SentEvent {
  event: string;
  timeMs: number;
  user: string;
  amount: number;
}

type Profile = { plan: string; n: number };

/** The cohorts the test saves, and their reference membership computed here over the generated data. */
const BEHAVIOR = { behavior: { event: 'Purchased', where: 'properties["amount"] >= 20', min_count: 2, last_days: 7 } };
const PROFILE = { where: 'properties["plan"] == "pro" or properties["n"] > 40' };

/** Did Purchased with amount >= 20 at least twice from the UTC midnight 6 days before `asOfMs`'s day to `asOfMs`. */
function behaviorReference(events: SentEvent[], asOfMs: number): Set<string> {
  const since = (Math.floor(asOfMs / DAY_MS) - 7 + 1) * DAY_MS;
  const counts = new Map<string, number>();
  for (const e of events) {
    if (e.event === 'Purchased' && e.amount >= 20 && e.timeMs >= since && e.timeMs <= asOfMs)
      counts.set(e.user, (counts.get(e.user) ?? 0) + 1);
  }
  return new Set([...counts].filter(([, count]) => count >= 2).map(([user]) => user));
}

const profileReference = (profiles: Map<string, Profile>) =>
  new Set([...profiles].filter(([, p]) => p.plan === 'pro' || p.n > 40).map(([id]) => id));
const sorted = (ids: Iterable<string>) => [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

describe('cohort members (/api/query/engage with filter_by_cohort)', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  let project: { id: number; secret: string };
  let other: { id: number; secret: string };
  const events: SentEvent[] = [];
  const profiles = new Map<string, Profile>();
  let behaviorId: number;
  let profileId: number;
  let otherCohortId: number;

  const query = async (
    fields: Record<string, string>,
    on = project,
    path = '/api/query/engage',
  ): Promise<QueryAnswer> => {
    const response = await fetch(`${service.baseUrl}${path}?project_id=${on.id}`, {
      method: 'POST',
      headers: { Authorization: basic(on.secret), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    return { status: response.status, body: (await response.json()) as QueryAnswer['body'] };
  };
  /** Every page of a session: the pages, in order. */
  const allPages = async (fields: Record<string, string>, pageSize: number) => {
    const first = await query({ ...fields, page_size: String(pageSize) });
    expect(first.status).toBe(200);
    const pages = [first.body];
    while (pages.at(-1)!.results.length === pageSize) {
      const next = await query({
        ...fields,
        page_size: String(pageSize),
        session_id: first.body.session_id,
        page: String(pages.length),
      });
      expect(next.status).toBe(200);
      pages.push(next.body);
    }
    return pages;
  };
  const saveCohort = async (on: { id: number; secret: string }, name: string, definition: object) => {
    const response = await fetch(`${service.baseUrl}/api/app/projects/${on.id}/cohorts`, {
      method: 'POST',
      headers: { Authorization: basic(on.secret), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, definition }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { results: { id: number } }).results.id;
  };

  beforeAll(async () => {
    environment = await createTestEnvironment();
    service = await startTestApp(
      cohortsApp,
      loadConfig({
        ...environment.env,
        QUERY_LIMIT_PER_HOUR: '1000000',
        QUERY_LIMIT_PER_SECOND: '100000',
        QUERY_LIMIT_CONCURRENT: '1000',
      }),
    );
    const projects = service.app.get(ProjectsService);
    const organization = await projects.createOrganization('Cohorts');
    const main = await projects.createProject(organization.id, 'Main');
    const second = await projects.createProject(organization.id, 'Other');
    project = { id: main.project.id, secret: main.secret };
    other = { id: second.project.id, secret: second.secret };

    // 120 users with events over the last 15 days; three in four have a profile; 20 more have only a profile.
    const random = new Random(19);
    const now = Date.now();
    for (let i = 0; i < 120; i++) {
      const user = `u${String(i).padStart(3, '0')}`;
      for (let k = random.int(0, 6); k > 0; k--) {
        events.push({
          event: random.pick(['Purchased', 'Purchased', 'Viewed']),
          timeMs: now - random.int(0, 15 * DAY_MS),
          user,
          amount: random.int(1, 60),
        });
      }
      if (i % 4 !== 0) profiles.set(user, { plan: random.pick(['free', 'pro', 'team']), n: random.int(0, 50) });
    }
    for (let i = 0; i < 20; i++)
      profiles.set(`x${String(i).padStart(3, '0')}`, { plan: random.pick(['free', 'pro']), n: random.int(0, 50) });
    const imported = await fetch(`${service.baseUrl}/import?strict=1&project_id=${project.id}`, {
      method: 'POST',
      headers: { Authorization: basic(project.secret), 'Content-Type': 'application/json' },
      body: JSON.stringify(
        events.map((e, i) => ({
          event: e.event,
          properties: { time: e.timeMs, distinct_id: e.user, $insert_id: `e${i}`, amount: e.amount },
        })),
      ),
    });
    expect(imported.status).toBe(200);
    const updates = [...profiles].map(([id, properties]) => ({
      $token: main.project.token,
      $distinct_id: id,
      $set: properties,
    }));
    const engage = await fetch(`${service.baseUrl}/engage`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ data: JSON.stringify(updates) }).toString(),
    });
    expect(await engage.text()).toBe('1');

    behaviorId = await saveCohort(project, 'Repeat buyers', BEHAVIOR);
    profileId = await saveCohort(project, 'Pro or high n', PROFILE);
    otherCohortId = await saveCohort(other, 'Elsewhere', PROFILE);
  });
  afterAll(async () => {
    await service?.close();
    await environment?.dispose();
  });

  it('pages through a behaviour cohort: disjoint, complete, equal to the reference; members without a profile have empty $properties', async () => {
    const pages = await allPages({ filter_by_cohort: JSON.stringify({ id: behaviorId }) }, 7);
    const expected = behaviorReference(events, Number(pages[0].session_id));
    expect(expected.size).toBeGreaterThan(10);
    const ids = pages.flatMap((page) => page.results.map((r) => r.$distinct_id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(sorted(expected));
    expect(pages.map((page) => page.page)).toEqual(pages.map((_, i) => i));
    for (const page of pages)
      expect(page).toMatchObject({ status: 'ok', page_size: 7, session_id: pages[0].session_id, total: expected.size });
    for (const result of pages.flatMap((page) => page.results)) {
      const profile = profiles.get(result.$distinct_id);
      expect(profile ? { plan: result.$properties.plan, n: result.$properties.n } : result.$properties).toEqual(
        profile ?? {},
      );
    }
    expect([...expected].some((id) => !profiles.has(id))).toBe(true);
  });

  it('include_all_users=false keeps only members with a profile', async () => {
    const pages = await allPages(
      { filter_by_cohort: JSON.stringify({ id: behaviorId }), include_all_users: 'false' },
      5,
    );
    const expected = [...behaviorReference(events, Number(pages[0].session_id))].filter((id) => profiles.has(id));
    expect(pages.flatMap((page) => page.results.map((r) => r.$distinct_id))).toEqual(sorted(expected));
    expect(pages[0].total).toBe(expected.length);
  });

  it('a where that holds without properties keeps the members without a profile', async () => {
    const { body } = await query({
      filter_by_cohort: JSON.stringify({ id: behaviorId }),
      where: 'not defined(properties["plan"])',
    });
    const expected = [...behaviorReference(events, Number(body.session_id))].filter((id) => !profiles.has(id));
    expect(body.results).toEqual(sorted(expected).map((id) => ({ $distinct_id: id, $properties: {} })));
  });

  it('reads a profile cohort, combined with where and output_properties', async () => {
    const pages = await allPages({ filter_by_cohort: JSON.stringify({ id: profileId }) }, 9);
    const expected = profileReference(profiles);
    expect(pages.flatMap((page) => page.results.map((r) => r.$distinct_id))).toEqual(sorted(expected));
    expect(pages[0].total).toBe(expected.size);

    const narrowed = await query({
      filter_by_cohort: JSON.stringify({ id: profileId }),
      where: 'properties["n"] < 25',
      output_properties: '["plan"]',
    });
    const kept = sorted([...expected].filter((id) => profiles.get(id)!.n < 25));
    expect(narrowed.body.total).toBe(kept.length);
    expect(narrowed.body.results).toEqual(
      kept.map((id) => ({ $distinct_id: id, $properties: { plan: profiles.get(id)!.plan } })),
    );
  });

  it('takes an unsaved definition as raw_cohort, with distinct_ids, and answers GET /api/2.0/engage alike', async () => {
    const raw = await query({ filter_by_cohort: JSON.stringify({ raw_cohort: BEHAVIOR }) });
    const saved = await query({ filter_by_cohort: JSON.stringify({ id: behaviorId }) });
    expect(raw.body.results.map((r) => r.$distinct_id)).toEqual(saved.body.results.map((r) => r.$distinct_id));
    const some = saved.body.results.slice(0, 3).map((r) => r.$distinct_id);
    const picked = await query({
      filter_by_cohort: JSON.stringify({ id: behaviorId }),
      distinct_ids: JSON.stringify([...some, 'x000-not-a-member']),
    });
    expect(picked.body.results.map((r) => r.$distinct_id)).toEqual(some);
    const url = `${service.baseUrl}/api/2.0/engage?project_id=${project.id}&filter_by_cohort=${encodeURIComponent(JSON.stringify({ id: profileId }))}`;
    const get = await fetch(url, { headers: { Authorization: basic(project.secret) } });
    expect(((await get.json()) as QueryAnswer['body']).total).toBe(profileReference(profiles).size);
  });

  it('as_of_timestamp reads a behaviour cohort as it was then', async () => {
    const asOf = Math.floor((Date.now() - 3 * DAY_MS) / 1000);
    const pages = await allPages(
      { filter_by_cohort: JSON.stringify({ id: behaviorId }), as_of_timestamp: String(asOf) },
      50,
    );
    expect(pages[0].session_id).toBe(String(asOf * 1000));
    const then = sorted(behaviorReference(events, asOf * 1000));
    expect(then).not.toEqual(sorted(behaviorReference(events, Date.now())));
    expect(pages.flatMap((page) => page.results.map((r) => r.$distinct_id))).toEqual(then);
  });

  it('answers 404 for an unknown cohort and for another project’s', async () => {
    for (const id of [otherCohortId, 999_999]) {
      const { status, body } = await query({ filter_by_cohort: JSON.stringify({ id }) });
      expect({ status, body }).toEqual({
        status: 404,
        body: {
          request: `/api/query/engage?project_id=${project.id}`,
          error: `cohort ${id} not found in this project`,
        },
      });
    }
    expect((await query({ filter_by_cohort: JSON.stringify({ id: otherCohortId }) }, other)).status).toBe(200);
  });

  it.each([
    [{ filter_by_cohort: '3' }, 'filter_by_cohort must be a JSON object such as {"id": 12}'],
    [{ filter_by_cohort: '{"id": "x"}' }, 'filter_by_cohort.id must be a cohort id (a positive integer)'],
    [
      { filter_by_cohort: '{"raw_cohort": {"where": 1}}' },
      expect.stringContaining('filter_by_cohort.raw_cohort must be'),
    ],
    [
      { filter_by_cohort: '{"raw_cohort": {"where": "properties[\\"plan\\"] =="}}' },
      expect.stringMatching(/^definition.where: at position \d+/),
    ],
    [
      { filter_by_cohort: '{"id": 1}', data_group_id: 'company' },
      'filter_by_cohort reads user profiles: it cannot be combined with data_group_id',
    ],
    [{ filter_by_cohort: '{"id": 1}', include_all_users: 'maybe' }, 'include_all_users must be true or false'],
    [{ as_of_timestamp: 'yesterday' }, 'as_of_timestamp must be a unix time in seconds'],
    [
      { behaviors: '[]' },
      'behaviors is not supported: save a behaviour cohort and send filter_by_cohort={"id": <cohort id>}',
    ],
  ])('refuses %j with 400', async (fields, error) => {
    const { status, body } = await query(fields as Record<string, string>);
    expect({ status, body }).toEqual({
      status: 400,
      body: { request: `/api/query/engage?project_id=${project.id}`, error },
    });
  });
});
