import {
  Answer,
  CHARGES,
  daysAgo,
  PRO_PROFILES,
  PROFILES,
  profileId,
  ReplayServer,
  startReplayServer,
} from './replay-server';

/**
 * Singer's tap-mixpanel (singer-io/tap-mixpanel 1.8.0, the source of the Stitch, Meltano and
 * PipelineWise builds), replayed request by request: its client (client.py: the check, the
 * authorization header, raise_for_error), discovery (schema.py) and each stream's sync loop
 * (streams.py: parameters squashed into a query string, the page loop, date dictionaries), with the
 * revenue stream of 1.7.x, which the builds still in use carry.
 */

/** `Basic urlsafe_b64encode(api_secret)`: the secret alone, no colon, no project id anywhere. */
const authorization = (secret: string) =>
  `Basic ${Buffer.from(secret).toString('base64').replace(/\+/g, '-').replace(/\//g, '_')}`;

/** raise_for_error: the message the tap raises for a failed answer. */
function raiseForError(answer: Answer): string {
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(answer.text);
  } catch {
    json = {};
  }
  let message = String(json.error ?? json.message ?? 'Unknown Error');
  if (answer.status === 400)
    message += answer.text.includes('to_date')
      ? ' Please validate the timezone with the MixPanel UI under project settings.'
      : '(Please verify your credentials.)';
  return `HTTP-error-code: ${answer.status}, Error: ${message}`;
}

class Tap {
  readonly requests: string[] = [];

  constructor(private readonly server: ReplayServer) {}

  /** `requests` quotes what the tap leaves raw in its query string (`{"id": 5}`). */
  async get(path: string, querystring = ''): Promise<Answer> {
    const url = `/api/2.0/${path}${querystring ? `?${encodeURI(querystring)}` : ''}`;
    this.requests.push(`GET ${url}`);
    return this.server.request(url, {
      headers: { Authorization: authorization(this.server.secret), Accept: 'application/json' },
    });
  }

  /** perform_request: anything but 200 raises. */
  async json(path: string, querystring = ''): Promise<any> {
    const answer = await this.get(path, querystring);
    if (answer.status !== 200) throw new Error(raiseForError(answer));
    return JSON.parse(answer.text);
  }

  /**
   * The page loop of MixPanel.sync for `engage` and `cohort_members`: page_size 250, and after the
   * first page `session_id` and `page`, while `offset <= total` and an answer held records.
   */
  async pages(params: Record<string, string>): Promise<any[]> {
    const limit = 250;
    const records: any[] = [];
    let [page, offset, total] = [0, 0, 0];
    let sessionId: string | undefined = 'initial';
    const query: Record<string, string> = { ...params, page_size: String(limit) };
    while (offset <= total && sessionId !== undefined) {
      if (page !== 0) Object.assign(query, { session_id: sessionId, page: String(page) });
      const data = await this.json(
        'engage',
        Object.entries(query)
          .map(([name, value]) => `${name}=${value}`)
          .join('&'),
      );
      sessionId = undefined;
      if (data?.results?.length) {
        records.push(...data.results);
        if (page === 0) total = data.total ?? data.results.length;
        sessionId = data.session_id;
      }
      offset += limit;
      page += 1;
    }
    return records;
  }

  /** The `funnels` and `revenue` date dictionaries: `$overall` skipped, `date` and `datetime` added. */
  static dated(dictionary: Record<string, Record<string, unknown>>): any[] {
    return Object.entries(dictionary)
      .filter(([date]) => date !== '$overall')
      .map(([date, value]) => ({ ...value, date, datetime: `${date}T00:00:00Z` }));
  }
}

const window = `from_date=${daysAgo(10)}&to_date=${daysAgo(0)}`;

describe("Singer's tap-mixpanel, replayed", () => {
  jest.setTimeout(120_000);
  let server: ReplayServer;

  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server?.close());

  it('passes the check and discovery: engage/properties and every event’s top properties', async () => {
    const tap = new Tap(server);
    // check_access: GET 2.0/engage with no parameters must answer 200.
    expect((await tap.get('engage')).status).toBe(200);
    const engage = await tap.json('engage/properties', 'limit=2000');
    expect(engage.status).toBe('ok');
    const types = Object.fromEntries(
      Object.entries(engage.results as Record<string, { type: string }>).map(([key, value]) => [
        key.startsWith('$') ? `mp_reserved_${key.slice(1)}` : key,
        value.type,
      ]),
    );
    expect(types).toMatchObject({ mp_reserved_email: 'string', visits: 'number', mp_reserved_transactions: 'list' });
    const top = await tap.json('events/properties/top', 'limit=2000');
    expect(Object.keys(top)).toEqual(expect.arrayContaining(['plan', 'amount']));
    expect(Object.values(top).every((entry: any) => Number.isInteger(entry.count))).toBe(true);
  });

  it('syncs engage, cohorts with their members, funnels, annotations and revenue', async () => {
    const tap = new Tap(server);
    const profiles = await tap.pages({});
    expect(profiles).toHaveLength(PROFILES);
    expect(profiles.map((profile) => profile.$distinct_id)).toEqual(
      Array.from({ length: PROFILES }, (_, i) => profileId(i)),
    );
    expect(tap.requests.filter((line) => line.startsWith('GET /api/2.0/engage?'))).toHaveLength(5);

    const cohorts = (await tap.json('cohorts/list')) as { id: number; name: string; count: number }[];
    expect(cohorts).toEqual([expect.objectContaining({ id: server.cohortId, count: PRO_PROFILES })]);
    // CohortMembers: `filter_by_cohort={"id": [parent_id]}`, raw in the tap's query string.
    const members = await tap.pages({ filter_by_cohort: `{"id": ${server.cohortId}}` });
    expect(members.map((member) => ({ distinct_id: member.$distinct_id, cohort_id: server.cohortId }))).toHaveLength(
      PRO_PROFILES,
    );

    const funnels = (await tap.json('funnels/list')) as { funnel_id: number; name: string }[];
    expect(funnels).toEqual([{ funnel_id: server.funnelId, name: 'Signup to purchase' }]);
    const funnel = await tap.json('funnels', `funnel_id=${server.funnelId}&unit=day&${window}`);
    const days = Tap.dated(funnel.data);
    expect(days).toHaveLength(11);
    expect(days.every((entry) => entry.date && Array.isArray(entry.steps))).toBe(true);

    const annotations = await tap.json('annotations', window);
    expect(annotations.annotations).toEqual([expect.objectContaining({ date: `${daysAgo(2)} 12:00:00` })]);

    // tap-mixpanel 1.7.x's Revenue stream (`unit=day` and the window), as the older builds still run it.
    const revenue = Tap.dated((await tap.json('engage/revenue', `unit=day&${window}`)).results);
    expect(revenue).toHaveLength(11);
    const charged = CHARGES.reduce((sum, [, amount]) => sum + amount, 0);
    expect(revenue.reduce((sum, row) => sum + row.amount, 0)).toBeCloseTo(charged, 6);
    expect(revenue.every((row) => row.count === PROFILES && Number.isInteger(row.paid_count))).toBe(true);
  });

  it('exports the window as JSON lines, and says "to_date" so the tap names the time zone', async () => {
    const tap = new Tap(server);
    const answer = await tap.get('export', window);
    expect(answer.status).toBe(200);
    const events = answer.text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line));
    expect(events).toHaveLength(server.eventTimes.length);
    expect(events.every((event) => Number.isInteger(event.properties.time) && event.properties.$insert_id)).toBe(true);

    const future = await tap.get('export', `from_date=${daysAgo(1)}&to_date=${daysAgo(-1)}`);
    expect(raiseForError(future)).toBe(
      'HTTP-error-code: 400, Error: to_date cannot be later than today Please validate the timezone with the MixPanel UI under project settings.',
    );
  });
});
