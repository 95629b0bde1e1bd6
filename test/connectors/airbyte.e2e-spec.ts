import { createTestEnvironment, startTestApp } from '@analytics/testing';
import { ProjectsService } from '@analytics/projects';
import { ServiceRootModule } from '@analytics/service-map';
import {
  Answer,
  basicHeader,
  CHARGES,
  daysAgo,
  PRO_PROFILES,
  PROFILES,
  ReplayServer,
  startReplayServer,
} from './replay-server';

/**
 * Airbyte's source-mixpanel (airbytehq/airbyte, airbyte-integrations/connectors/source-mixpanel):
 * the declarative streams of its manifest.yaml with their custom components (components.py), and the
 * Python `Export` stream (streams.py), replayed request by request. Each step ports the few lines of
 * the connector that build the request and read the answer: paths, parameters, the authenticator,
 * the paginator's stop rule, the extractors, the error handler's response filters.
 */

type Credentials = { kind: 'project-secret' } | { kind: 'service-account' };
type Resolution = 'SUCCESS' | 'FAIL' | 'RATE_LIMITED' | 'RETRY' | 'IGNORE';

/** The manifest's `default_error_handler` response filters, in order, then the CDK's defaults. */
export function airbyteResolution(answer: Answer): Resolution {
  if (answer.status === 400) return 'FAIL';
  if (answer.text.includes('Unable to authenticate request')) return 'FAIL';
  if (answer.status === 402) return 'FAIL';
  if (answer.headers.has('Retry-After')) return 'RATE_LIMITED';
  if (answer.text.includes('Query rate limit exceeded')) return 'RATE_LIMITED';
  if (answer.text.includes('to_date cannot be later than today')) return 'FAIL';
  if (answer.status < 300) return 'SUCCESS';
  return answer.status === 429 || answer.status >= 500 ? 'RETRY' : 'FAIL';
}

const START = daysAgo(10);
/** `config.end_date or day_delta(-1)`: yesterday. */
const END = daysAgo(1);
/** The cursors' `start_time` as each stream formats it. */
const START_TIME = { cohorts: `${START} 00:00:00`, engage: `${START}T00:00:00` };

class Airbyte {
  readonly requests: string[] = [];

  constructor(
    private readonly server: ReplayServer,
    private readonly credentials: Credentials,
  ) {}

  /** `api_token_auth`: "Basic {{ api_secret | base64encode }}", no colon; or `BasicHttpAuthenticator`. */
  private get authorization(): string {
    return this.credentials.kind === 'project-secret'
      ? basicHeader(this.server.secret)
      : basicHeader(`${this.server.serviceAccount.username}:${this.server.serviceAccount.secret}`);
  }

  /** MixpanelHttpRequester.get_request_params: project_id only when the config has one. */
  private params(extra: Record<string, string | number> = {}): URLSearchParams {
    const params = new URLSearchParams();
    if (this.credentials.kind === 'service-account') params.set('project_id', String(this.server.projectId));
    for (const [name, value] of Object.entries(extra)) params.set(name, String(value));
    return params;
  }

  async send(method: string, path: string, params: URLSearchParams, body?: unknown): Promise<Answer> {
    const query = params.toString();
    const url = `${path}${query ? `?${query}` : ''}`;
    this.requests.push(`${method} ${url}`);
    const headers: Record<string, string> = { Authorization: this.authorization, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return this.server.request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  }

  async json(method: string, path: string, extra?: Record<string, string | number>, body?: unknown): Promise<any> {
    const answer = await this.send(method, path, this.params(extra), body);
    expect({ path, resolution: airbyteResolution(answer), status: answer.status }).toEqual({
      path,
      resolution: 'SUCCESS',
      status: 200,
    });
    return JSON.parse(answer.text);
  }

  /** The `cohorts` stream (also the connector's check): the whole list, `created` >= the cursor's start. */
  async cohorts(): Promise<any[]> {
    const records = (await this.json('GET', '/api/2.0/cohorts/list')) as any[];
    return records.filter((record) => record.created >= START_TIME.cohorts);
  }

  /**
   * `paginator`: page_size 1000, then `session_id` and `page` from the answer while
   * EngagePaginationStrategy finds `total > page_size * (page + 1)` (total read from the first page).
   */
  async engagePages(method: 'GET' | 'POST', extra: Record<string, string>, body?: unknown): Promise<any[]> {
    const pageSize = 1000;
    const records: any[] = [];
    let total = 0;
    let token: Record<string, string | number> = {};
    for (;;) {
      const answer = await this.json(method, '/api/2.0/engage', { page_size: pageSize, ...extra, ...token }, body);
      records.push(...answer.results);
      if (answer.total) total = answer.total;
      if (!(total && answer.page !== undefined && total > pageSize * (answer.page + 1))) return records;
      token = { session_id: answer.session_id, page: answer.page + 1 };
    }
  }

  /** The `engage` stream: EngageJsonFileSchemaLoader's property types, then the filtered, flattened profiles. */
  async engage(): Promise<{ schema: Record<string, string>; records: any[] }> {
    const properties = await this.json('GET', '/api/2.0/engage/properties');
    const schema = Object.fromEntries(
      Object.entries(properties.results as Record<string, { type: string }>).map(([name, entry]) => [name, entry.type]),
    );
    const profiles = await this.engagePages('GET', { where: `properties["$last_seen"] >= "${START_TIME.engage}"` });
    return { schema, records: profiles.filter(lastSeenSince).map(engageTransformation) };
  }

  /** `cohort_members`: POST 2.0/engage, `filter_by_cohort` in a JSON body (CohortMembersSubstreamPartitionRouter). */
  async cohortMembers(cohortId: number): Promise<any[]> {
    const body = { filter_by_cohort: `{"id":${cohortId}}` };
    const members = await this.engagePages('POST', {}, body);
    return members
      .filter(lastSeenSince)
      .map(engageTransformation)
      .map((record) => ({ ...record, cohort_id: cohortId }));
  }

  /** `revenue`: one 30-day window (DatetimeBasedCursor), RevenueDpathExtractor skips `$overall`. */
  async revenue(): Promise<any[]> {
    const answer = await this.json('GET', '/api/2.0/engage/revenue', { from_date: START, to_date: END });
    return Object.entries(answer.results as Record<string, object>)
      .filter(([date]) => date !== '$overall')
      .map(([date, entry]) => ({ date, ...entry }));
  }

  /** `annotations`: app/projects/{id}/annotations (`results`) with a project id, else 2.0/annotations (`annotations`). */
  async annotations(): Promise<any[]> {
    if (this.credentials.kind === 'service-account') {
      const path = `/api/app/projects/${this.server.projectId}/annotations`;
      const answer = await this.send('GET', path, new URLSearchParams());
      expect(answer.status).toBe(200);
      return JSON.parse(answer.text).results;
    }
    const answer = await this.send('GET', '/api/2.0/annotations', new URLSearchParams());
    expect(airbyteResolution(answer)).toBe('SUCCESS');
    return JSON.parse(answer.text).annotations;
  }

  /** `funnel_ids` then `funnels` (FunnelsHttpRequester adds unit=day; FunnelsDpathExtractor reads `data`). */
  async funnels(): Promise<any[]> {
    const ids = (await this.json('GET', '/api/2.0/funnels/list')) as { funnel_id: number; name: string }[];
    const records: any[] = [];
    for (const { funnel_id: funnelId, name } of ids) {
      const answer = await this.json('GET', '/api/2.0/funnels', {
        funnel_id: funnelId,
        unit: 'day',
        from_date: START,
        to_date: END,
      });
      for (const [date, entry] of Object.entries(answer.data as Record<string, object>))
        records.push({ date, ...entry, funnel_id: String(funnelId), name });
    }
    return records;
  }

  /** ExportSchema (api/query/events/properties/top, every event's properties), then Export's JSON lines. */
  async exportSchema(): Promise<string[]> {
    return Object.keys(await this.json('GET', '/api/query/events/properties/top'));
  }

  async export(fromDate: string, toDate: string, cursorSeconds?: number): Promise<Answer> {
    const extra: Record<string, string> = { from_date: fromDate, to_date: toDate };
    if (cursorSeconds !== undefined) extra.where = `properties["$time"]>=datetime(${cursorSeconds})`;
    return this.send('GET', '/api/2.0/export', this.params(extra));
  }
}

/** The record filter `record['$properties']['$last_seen'] >= stream_interval.start_time`. */
const lastSeenSince = (record: any) => record.$properties.$last_seen >= START_TIME.engage;

/** EngageTransformation: `distinct_id`, and the properties flattened without their leading `$`. */
function engageTransformation(record: any): Record<string, unknown> {
  const flat: Record<string, unknown> = { distinct_id: record.$distinct_id };
  for (const [name, value] of Object.entries(record.$properties as Record<string, unknown>))
    flat[name.startsWith('$') ? name.slice(1) : name] = value;
  return flat;
}

/** Export.iter_dicts and process_response: JSON lines, `time` as an ISO instant. */
function exportRecords(text: string): any[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && line !== 'terminated early')
    .map((line) => JSON.parse(line))
    .map((record) => ({
      event: record.event,
      ...record.properties,
      time: new Date(record.properties.time * 1000).toISOString(),
    }));
}

describe("Airbyte's source-mixpanel, replayed", () => {
  jest.setTimeout(120_000);
  let server: ReplayServer;

  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server?.close());

  it('reads every stream with the project secret (Basic base64(secret), no colon, no project id)', async () => {
    const airbyte = new Airbyte(server, { kind: 'project-secret' });

    const cohorts = await airbyte.cohorts();
    expect(cohorts).toEqual([expect.objectContaining({ id: server.cohortId, name: 'Pro users', count: PRO_PROFILES })]);

    const engage = await airbyte.engage();
    expect(engage.schema).toMatchObject({
      $email: 'string',
      $name: 'string',
      plan: 'string',
      visits: 'number',
      $last_seen: 'datetime',
      $transactions: 'list',
    });
    expect(engage.records).toHaveLength(PROFILES);
    expect(new Set(engage.records.map((record) => record.distinct_id)).size).toBe(PROFILES);
    expect(engage.records[0]).toMatchObject({ distinct_id: 'user-0000', name: 'User 0', plan: 'pro' });
    // Two pages: 1005 profiles at 1000 a page, the second asked with the first page's session.
    expect(airbyte.requests.filter((line) => line.startsWith('GET /api/2.0/engage?'))).toEqual([
      expect.not.stringContaining('session_id'),
      expect.stringMatching(/session_id=\d+&page=1$/),
    ]);

    const revenue = await airbyte.revenue();
    expect(revenue).toHaveLength(10);
    expect(revenue.find((row) => row.date === daysAgo(3))).toEqual({
      date: daysAgo(3),
      amount: 19.99,
      count: PROFILES,
      paid_count: 1,
    });
    expect(revenue.find((row) => row.date === daysAgo(2))).toMatchObject({ amount: 15.5, paid_count: 2 });
    const charged = CHARGES.reduce((sum, [, amount]) => sum + amount, 0);
    expect(revenue.reduce((sum, row) => sum + row.amount, 0)).toBeCloseTo(charged, 6);

    expect(await airbyte.annotations()).toEqual([
      {
        id: expect.any(Number),
        project_id: server.projectId,
        date: `${daysAgo(2)} 12:00:00`,
        description: 'Launched v2',
      },
    ]);

    const members = await airbyte.cohortMembers(server.cohortId);
    expect(members).toHaveLength(PRO_PROFILES);
    expect(members.every((member) => member.plan === 'pro' && member.cohort_id === server.cohortId)).toBe(true);

    const funnels = await airbyte.funnels();
    expect(funnels).toHaveLength(10);
    expect(funnels.every((row) => row.funnel_id === String(server.funnelId) && row.name === 'Signup to purchase')).toBe(
      true,
    );
    const converted = funnels.reduce((sum, row) => sum + row.steps[1].count, 0);
    expect(converted).toBe(10);

    expect(await airbyte.exportSchema()).toEqual(expect.arrayContaining(['plan', 'amount']));
    // The first sync: the window's days; the next one from the cursor, by `properties["$time"]`.
    const first = await airbyte.export(daysAgo(15), END);
    expect(first.headers.get('content-type')).toMatch(/^(text\/plain|application\/x-ndjson)/);
    const all = exportRecords(first.text);
    expect(all).toHaveLength(server.eventTimes.length);
    const cursor = Math.max(...server.eventTimes);
    const incremental = exportRecords((await airbyte.export(daysAgo(6), END, cursor)).text);
    expect(incremental.map((record) => record.time)).toEqual([new Date(cursor * 1000).toISOString()]);
  });

  it('reads with a service account, the project id in every request and the annotations on the app path', async () => {
    const airbyte = new Airbyte(server, { kind: 'service-account' });
    expect(await airbyte.cohorts()).toHaveLength(1);
    expect((await airbyte.engage()).records).toHaveLength(PROFILES);
    expect(await airbyte.annotations()).toEqual([expect.objectContaining({ description: 'Launched v2' })]);
    expect(
      airbyte.requests.every((line) => line.includes(`project_id=${server.projectId}`) || line.includes('/app/')),
    ).toBe(true);
  });

  it('stops the export on "to_date cannot be later than today" (ExportErrorHandler: IGNORE, a config error)', async () => {
    const airbyte = new Airbyte(server, { kind: 'project-secret' });
    const answer = await airbyte.export(daysAgo(1), daysAgo(-2));
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('to_date cannot be later than today');
    expect(airbyteResolution(answer)).toBe('FAIL');
  });
});

describe("Airbyte's source-mixpanel past the query API's limits", () => {
  it('gets a 429 its error handler rates as RATE_LIMITED, with the Retry-After its backoff waits', async () => {
    const environment = await createTestEnvironment({ env: { SERVICES: 'query', QUERY_LIMIT_PER_HOUR: '2' } });
    const service = await startTestApp((config) => ServiceRootModule.forRoot(config), environment.config);
    try {
      const projects = service.app.get(ProjectsService);
      const { secret } = await projects.createProject((await projects.createOrganization('Limited')).id, 'Busy');
      const ask = async () => {
        const response = await fetch(`${service.baseUrl}/api/2.0/cohorts/list`, {
          headers: { Authorization: basicHeader(secret), Accept: 'application/json' },
        });
        return { status: response.status, headers: response.headers, text: await response.text() };
      };
      expect([(await ask()).status, (await ask()).status]).toEqual([200, 200]);
      const limited = await ask();
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
      expect(JSON.parse(limited.text).error).toMatch(/^Query rate limit exceeded/);
      expect(airbyteResolution(limited)).toBe('RATE_LIMITED');
    } finally {
      await service.close();
      await environment.dispose();
    }
  });
});
