import { IngestModule } from '@analytics/ingest';
import { AppConfig } from '@analytics/config';
import { ProjectsModule, ProjectsService } from '@analytics/projects';
import { PlatformModule } from '@analytics/runtime';
import { engineNeeds, intakeOf } from '@analytics/service-map';
import { projectScope } from '@analytics/tenancy';
import { createTestEnvironment, eventually, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';
import { DynamicModule } from '@nestjs/common';
import { QueryModule } from '../src';

function ingestAndQueries(config: AppConfig): DynamicModule {
  return {
    module: class FlowsStreamTestModule {},
    imports: [
      PlatformModule.forRoot(config, engineNeeds(config, ['ingest', 'query'])),
      ProjectsModule,
      IngestModule.forRoot(intakeOf(config)),
      QueryModule,
    ],
  };
}

const basic = (user: string) => `Basic ${Buffer.from(`${user}:`).toString('base64')}`;
const at = (iso: string) => Date.parse(iso) / 1000;

interface StreamEvent {
  event: string;
  properties: Record<string, unknown>;
}
interface StreamAnswer {
  status: string;
  results: { events: StreamEvent[] };
  next_cursor: string | null;
}

/**
 * The activity stream and flows through HTTP, on a project in the simplified identity mode: alice
 * browsed anonymously on device d1 (`$device:d1`), then signed in there, which merged the device
 * into her; bob never merged.
 */
describe('activity stream and flows, through HTTP', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  let projectId: number;
  let secret: string;

  const call = (path: string) => fetch(`${service.baseUrl}${path}`, { headers: { Authorization: basic(secret) } });
  const json = async <T>(path: string, status = 200): Promise<T> => {
    const response = await call(path);
    const body = (await response.json()) as T;
    expect({ status: response.status, body }).toMatchObject({ status });
    return body;
  };
  const stream = (ids: string[], extra = '') =>
    `/stream/query?distinct_ids=${encodeURIComponent(JSON.stringify(ids))}&from_date=2024-03-04&to_date=2024-03-05${extra}`;

  beforeAll(async () => {
    environment = await createTestEnvironment({
      env: { QUERY_LIMIT_PER_SECOND: '1000', QUERY_LIMIT_PER_HOUR: '100000' },
    });
    service = await startTestApp(ingestAndQueries, environment.config);
    const projects = service.app.get(ProjectsService);
    const organization = await projects.createOrganization('Flows');
    const created = await projects.createProject(organization.id, 'Main');
    projectId = created.project.id;
    secret = created.secret;
    const events = [
      ['Viewed page', '2024-03-04T09:00:00Z', { distinct_id: '$device:d1', $device_id: 'd1' }],
      ['Viewed page', '2024-03-04T09:05:00Z', { distinct_id: '$device:d1', $device_id: 'd1', page: 'pricing' }],
      ['Signed up', '2024-03-04T09:10:00Z', { distinct_id: 'alice', $user_id: 'alice', $device_id: 'd1' }],
      ['Purchased', '2024-03-05T10:00:00Z', { distinct_id: 'alice', $user_id: 'alice', amount: 'BIG' }],
      ['Purchased', '2024-03-06T10:00:00Z', { distinct_id: 'alice', $user_id: 'alice' }],
      ['Signed up', '2024-03-04T11:00:00Z', { distinct_id: 'bob' }],
      ['Viewed page', '2024-03-04T11:01:00Z', { distinct_id: 'bob' }],
    ].map(([event, time, properties], i) => ({
      event,
      properties: { time: at(time as string), $insert_id: `e${i}`, ...(properties as object) },
    }));
    const imported = await fetch(`${service.baseUrl}/import?strict=1`, {
      method: 'POST',
      headers: { Authorization: basic(secret), 'Content-Type': 'application/json' },
      // An integer past 2^53, as a client's JSON text holds it (a JavaScript number would round it).
      body: JSON.stringify(events).replace('"amount":"BIG"', '"amount":12345678901234567890'),
    });
    expect(imported.status).toBe(200);
  });
  afterAll(async () => {
    await service?.close();
    await environment?.dispose();
  });

  it('gives a person’s events across their merged ids, newest first, by any of their ids and on both prefixes', async () => {
    const expected = [
      ['Purchased', 'alice', undefined],
      ['Signed up', 'alice', undefined],
      ['Viewed page', 'alice', '$device:d1'],
      ['Viewed page', 'alice', '$device:d1'],
    ];
    const shape = (answer: StreamAnswer) =>
      answer.results.events.map((e) => [e.event, e.properties.distinct_id, e.properties.$distinct_id_before_identity]);
    // The link is applied after the events are stored: poll until the device's events join alice.
    const byDevice = await eventually(async () => {
      const answer = await json<StreamAnswer>(`/api/query${stream(['$device:d1'])}`);
      expect(shape(answer)).toEqual(expected);
      return answer;
    });
    expect(byDevice).toMatchObject({ status: 'ok', next_cursor: null });
    expect(byDevice.results.events[0].properties).toMatchObject({ time: at('2024-03-05T10:00:00Z'), $insert_id: 'e3' });
    expect(byDevice.results.events[2].properties).toMatchObject({ page: 'pricing' });
    // The stored text travels as it is: an integer past 2^53 keeps its digits.
    expect(await (await call(`/api/query${stream(['alice'])}`)).text()).toContain('"amount":12345678901234567890');
    expect(shape(await json<StreamAnswer>(`/api/2.0${stream(['alice'])}`))).toEqual(expected);
    expect(shape(await json<StreamAnswer>(`/api/query${stream(['bob', 'nobody'])}`))).toEqual([
      ['Viewed page', 'bob', undefined],
      ['Signed up', 'bob', undefined],
    ]);
  });

  it('pages with limit and next_cursor until the last page, each event once', async () => {
    const seen: string[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const answer: StreamAnswer = await json<StreamAnswer>(
        `/api/query${stream(['alice', 'bob'], `&limit=2${cursor ? `&cursor=${cursor}` : ''}`)}`,
      );
      seen.push(...answer.results.events.map((e) => String(e.properties.$insert_id)));
      cursor = answer.next_cursor;
      pages++;
    }
    expect({ pages, seen }).toEqual({ pages: 3, seen: ['e3', 'e6', 'e5', 'e2', 'e1', 'e0'] });
  });

  it('answers bad stream parameters with a 400 in the query API’s shape', async () => {
    const many = JSON.stringify(Array.from({ length: 101 }, (_, i) => `u${i}`));
    for (const [path, error] of [
      [
        `/api/query/stream/query?distinct_ids=${encodeURIComponent(many)}&from_date=2024-03-04&to_date=2024-03-05`,
        'distinct_ids may hold at most 100 ids, got 101',
      ],
      [
        '/api/query/stream/query?distinct_ids=%5B%22alice%22%5D&to_date=2024-03-05',
        'from_date is required (yyyy-mm-dd)',
      ],
      [
        `/api/query${stream(['alice'], '&cursor=xyz')}`,
        'cursor is not one this API gave (use next_cursor from the previous page as it is)',
      ],
    ]) {
      expect(await json(path, 400)).toEqual({ request: path, error });
    }
  });

  it('answers flows after and before an anchor, identity resolved, and refuses bad steps', async () => {
    const flows = (query: string) => `/flows?from_date=2024-03-04&to_date=2024-03-05&${query}`;
    await eventually(async () =>
      expect(await json(`/api/query${flows('event=Viewed%20page&steps=2')}`)).toEqual({
        event: 'Viewed page',
        direction: 'after',
        people: 2,
        paths: [
          { steps: ['Viewed page'], count: 1 },
          { steps: ['Viewed page', 'Viewed page', 'Signed up'], count: 1 },
        ],
        other: { paths: 0, count: 0 },
        drop_off: [
          { step: 1, reached: 1, dropped: 1 },
          { step: 2, reached: 1, dropped: 0 },
        ],
      }),
    );
    expect(await json(`/api/2.0${flows('event=Purchased&direction=before&steps=3')}`)).toMatchObject({
      people: 1,
      paths: [{ steps: ['Viewed page', 'Viewed page', 'Signed up', 'Purchased'], count: 1 }],
    });
    const bad = `/api/query${flows('event=Purchased&steps=6')}`;
    expect(await json(bad, 400)).toEqual({ request: bad, error: 'steps must be a whole number from 1 to 5, got "6"' });
  });

  it('keeps to the project’s retention: events older than it are gone from the stream', async () => {
    await service.app.get(ProjectsService).update(projectScope(projectId), { dataRetentionDays: 30 });
    await eventually(async () =>
      expect(await json<StreamAnswer>(`/api/query${stream(['alice'])}`)).toEqual({
        status: 'ok',
        results: { events: [] },
        next_cursor: null,
      }),
    );
  });
});
