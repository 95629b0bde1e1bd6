import { Answer, basicHeader, CHARGES, daysAgo, PRO_PROFILES, ReplayServer, startReplayServer } from './replay-server';

/**
 * CloudQuery's Mixpanel source plugin (cloudquery/cloudquery, plugins/source/mixpanel, as last
 * published before it left the repository), replayed request by request: its client
 * (internal/mixpanel/mixpanel.go: Basic auth as Go's SetBasicAuth sends it, `project_id` on every
 * request, a JSON content type, retries of 429 only) and each table's resolver.
 */

/** Go's time layout "2006-01-02 15:04:05", as the plugin's `Time` type parses `created` and `date`. */
const GO_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

class Plugin {
  readonly requests: string[] = [];

  /** `username` empty: the project secret, which SetBasicAuth sends as `base64(":" + secret)`. */
  constructor(
    private readonly server: ReplayServer,
    private readonly username: string,
    private readonly secret: string,
  ) {}

  async send(method: string, path: string, params: Record<string, string> = {}): Promise<Answer> {
    const query = new URLSearchParams({ ...params, project_id: String(this.server.projectId) });
    const url = `${path}?${query.toString()}`;
    this.requests.push(`${method} ${url}`);
    return this.server.request(url, {
      method,
      headers: { Authorization: basicHeader(`${this.username}:${this.secret}`), 'Content-Type': 'application/json' },
    });
  }

  /** Client.Request: a 200 decodes as JSON; a 429 would be retried; anything else fails the table. */
  async json(method: string, path: string, params?: Record<string, string>): Promise<any> {
    const answer = await this.send(method, path, params);
    expect({ path, status: answer.status }).toEqual({ path, status: 200 });
    return JSON.parse(answer.text);
  }

  /** fetchCohortMembers: POST 2.0/engage, the page count from the first page's `total` and `page_size`. */
  async cohortMembers(cohortId: number): Promise<any[]> {
    const params: Record<string, string> = { filter_by_cohort: `{"id":${cohortId}}`, include_all_users: 'true' };
    const members: any[] = [];
    let totalPages: number | undefined;
    for (;;) {
      const answer = await this.json('POST', '/api/2.0/engage', params);
      members.push(
        ...answer.results.map((row: any) => ({ distinct_id: row.$distinct_id, properties: row.$properties })),
      );
      totalPages ??= answer.page_size > 0 && answer.total > 0 ? Math.ceil(answer.total / answer.page_size) : 0;
      const page = answer.page + 1;
      if (totalPages === 0 || page >= totalPages) return members;
      Object.assign(params, { page: String(page), session_id: answer.session_id });
    }
  }
}

/** The spec's defaults: start_date 30 days ago, end_date today (UTC). */
const RANGE = { from_date: daysAgo(30), to_date: daysAgo(0) };

describe("CloudQuery's Mixpanel plugin, replayed", () => {
  jest.setTimeout(120_000);
  let server: ReplayServer;

  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server?.close());

  it('syncs every table with a service account', async () => {
    const plugin = new Plugin(server, server.serviceAccount.username, server.serviceAccount.secret);

    const annotations = await plugin.json('GET', `/api/app/projects/${server.projectId}/annotations`);
    expect(annotations.status).toBe('ok');
    expect(annotations.results).toEqual([
      expect.objectContaining({
        id: expect.any(Number),
        date: expect.stringMatching(GO_TIME),
        description: 'Launched v2',
      }),
    ]);

    const cohorts = await plugin.json('GET', '/api/2.0/cohorts/list');
    expect(cohorts).toEqual([
      {
        count: PRO_PROFILES,
        is_visible: expect.any(Number),
        description: expect.any(String),
        created: expect.stringMatching(GO_TIME),
        project_id: server.projectId,
        id: server.cohortId,
        name: 'Pro users',
      },
    ]);
    const members = await plugin.cohortMembers(server.cohortId);
    expect(members).toHaveLength(PRO_PROFILES);
    expect(new Set(members.map((member) => member.distinct_id)).size).toBe(PRO_PROFILES);

    const funnels = await plugin.json('GET', '/api/2.0/funnels/list');
    expect(funnels).toEqual([{ funnel_id: server.funnelId, name: 'Signup to purchase' }]);
    const report = await plugin.json('GET', '/api/2.0/funnels', { funnel_id: String(server.funnelId), ...RANGE });
    const days = Object.entries(report.data as Record<string, { steps: unknown[]; analysis: object }>);
    expect(days).toHaveLength(31);
    expect(days.every(([date, entry]) => /^\d{4}-\d{2}-\d{2}$/.test(date) && entry.steps.length === 2)).toBe(true);

    // ListEngageRevenues reads `data`; Mixpanel (and we) answer `results`, so the table stays empty
    // there as here (docs/compatibility.md). The request itself succeeds.
    const revenue = await plugin.json('POST', '/api/2.0/engage/revenue', RANGE);
    expect(revenue.data).toBeUndefined();
    const charged = CHARGES.reduce((sum, [, amount]) => sum + amount, 0);
    expect(revenue.results.$overall.amount).toBeCloseTo(charged, 6);

    // ExportData: no cursor on the first sync, then `where=properties["$time"]>=datetime(<high-water mark>)`.
    const lines = (answer: Answer) =>
      answer.text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { event: string; properties: { time: number } });
    const all = lines(await plugin.send('GET', '/api/2.0/export', RANGE));
    expect(all).toHaveLength(server.eventTimes.length);
    const highWater = Math.max(...all.map((event) => event.properties.time));
    const since = lines(
      await plugin.send('GET', '/api/2.0/export', { ...RANGE, where: `properties["$time"]>=datetime(${highWater})` }),
    );
    expect(since.map((event) => event.properties.time)).toEqual([highWater]);
    expect(plugin.requests.every((line) => line.includes(`project_id=${server.projectId}`))).toBe(true);
  });

  it('authenticates the project secret sent as the password of an empty username', async () => {
    const plugin = new Plugin(server, '', server.secret);
    expect(await plugin.json('GET', '/api/2.0/cohorts/list')).toHaveLength(1);
    expect((await plugin.send('GET', '/api/2.0/cohorts/list')).status).toBe(200);
    const wrong = await new Plugin(server, '', 'not-the-secret').send('GET', '/api/2.0/cohorts/list');
    expect(wrong.status).toBe(401);
  });
});
