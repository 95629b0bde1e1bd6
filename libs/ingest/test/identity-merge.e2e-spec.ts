import { projectScope } from '@analytics/tenancy';
import { ClickHouseClient } from '@analytics/clickhouse';
import { AppConfig } from '@analytics/config';
import { MAX_CLUSTER_IDS } from '@analytics/events';
import { IdentityRepository } from '@analytics/identity';
import { DEAD_LETTER_HEADERS, Kafka, topicName } from '@analytics/kafka';
import { ProjectsService } from '@analytics/projects';
import { DAY_MS, FunnelSpec, FunnelsRepository, loadQuerySettings, QueryRunner, TimeZone } from '@analytics/query';
import { eventually } from '@analytics/testing';
import Mixpanel from 'mixpanel';
import { Browser } from 'playwright-core';
import { IngestHarness, startIngestHarness } from './ingest-harness';
import { launchChromium, SdkPage, sdkSiteFiles } from './sdk/browser-sdk-page';
import { PageServer, startPageServer } from './sdk/page-server';
import { waitForStoredEvents, whereProperty } from './sdk/stored-events';

jest.setTimeout(90_000);

const STEPS = ['Viewed landing page', 'Signed up', 'Purchased'];
const quietLogger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/**
 * Identity merge end to end (docs/identity.md): the official SDKs send as they always do, the
 * gateway derives the links, and the funnel engine counts anonymous and identified steps of one
 * person as one user, also for events stored before the link arrived.
 */
describe.each([
  { transport: 'in-process', kafka: false },
  { transport: 'Kafka (links on the identities topic, applied by the identity writer)', kafka: true },
])('identity merge with the official SDKs, $transport', ({ kafka }) => {
  let h: IngestHarness;
  let site: PageServer;
  let browser: Browser;
  let funnels: FunnelsRepository;

  beforeAll(async () => {
    browser = await launchChromium();
    h = await startIngestHarness({ kafka });
    site = await startPageServer(sdkSiteFiles());
    funnels = new FunnelsRepository(new QueryRunner(h.app.app.get(ClickHouseClient), loadQuerySettings({})));
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await h?.close();
  });

  /** Users per step of the 3-step funnel over yesterday and today, within a day. */
  async function funnelCounts(projectId: number): Promise<number[]> {
    const today = Math.floor(Date.now() / DAY_MS);
    const spec: FunnelSpec = {
      steps: STEPS.map((event) => ({ event })),
      filters: [],
      windowMs: DAY_MS,
      calendarWindow: false,
      fromDay: today - 1,
      toDay: today,
      zone: TimeZone.UTC,
      buckets: { kind: 'days', days: 2 },
      limit: 255,
    };
    const { cells } = await funnels.tally(projectScope(projectId), spec);
    return STEPS.map((_, i) => cells.reduce((sum, cell) => sum + (cell.counts[i] ?? 0), 0));
  }

  /** The funnel once `ready` holds (a broker-backed writer stores after the gateway answered). */
  const countsOnce = (projectId: number, ready: (counts: number[]) => boolean) =>
    eventually(async () => {
      const counts = await funnelCounts(projectId);
      if (!ready(counts)) throw new Error(`funnel so far ${JSON.stringify(counts)}`);
      return counts;
    });

  it('browser SDK, simplified (the default): anonymous page view, identify(), purchase → one user who converted', async () => {
    const context = await browser.newContext();
    try {
      const page = await SdkPage.open(context, `${site.origin}/`, h.app.baseUrl);
      await page.init(h.project.token, { api_host: h.app.baseUrl, batch_flush_interval_ms: 200 });
      const user = `buyer-${kafka ? 'k' : 'p'}-${Date.now()}`;
      await page.track(STEPS[0], { test_case: 'browser-merge' });
      await page.identify(user);
      await page.track(STEPS[1], { test_case: 'browser-merge' });
      await page.track(STEPS[2], { test_case: 'browser-merge' });
      const stored = await waitForStoredEvents(h, whereProperty('test_case', 'browser-merge'), 3);
      // Stored under the ids they were sent with: the page view under the device, the rest under the user.
      const ids = Object.fromEntries(stored.map((e) => [e.event, e.distinct_id]));
      expect(ids[STEPS[0]]).toMatch(/^\$device:/);
      expect([ids[STEPS[1]], ids[STEPS[2]]]).toEqual([user, user]);
      expect(await countsOnce(h.project.id, (counts) => counts[2] === 1)).toEqual([1, 1, 1]);
    } finally {
      await context.close();
    }
  });

  it('Node SDK, original: steps before alias() count for the customer once the alias arrives (retroactive)', async () => {
    const projects = h.app.app.get(ProjectsService);
    const { project } = await projects.createProject(
      (await projects.findById(h.project.id))!.organizationId,
      'Original',
    );
    await projects.update(projectScope(project.id), { identityMerge: 'original' });
    const mixpanel = Mixpanel.init(project.token, {
      host: new URL(h.app.baseUrl).host,
      protocol: 'http',
      logger: quietLogger,
    });
    const send = (call: (done: (error: Error | undefined) => void) => void) =>
      new Promise<void>((resolve, reject) => call((error) => (error ? reject(error) : resolve())));
    await send((done) => mixpanel.track(STEPS[0], { distinct_id: 'anon-7', test_case: 'node-merge' }, done));
    await send((done) => mixpanel.track(STEPS[1], { distinct_id: 'anon-7', test_case: 'node-merge' }, done));
    await send((done) => mixpanel.track(STEPS[2], { distinct_id: 'customer-7', test_case: 'node-merge' }, done));
    // Two people as far as anyone knows: the funnel breaks at the purchase.
    expect(await countsOnce(project.id, (counts) => counts[1] === 1)).toEqual([1, 1, 0]);

    await send((done) => mixpanel.alias('anon-7', 'customer-7', done));
    expect(await countsOnce(project.id, (counts) => counts[2] === 1)).toEqual([1, 1, 1]);
  });

  it(`$merge through /import joins ids; past ${MAX_CLUSTER_IDS} ids the link is refused with its reason, the event still stored`, async () => {
    const projects = h.app.app.get(ProjectsService);
    const { project, secret } = await projects.createProject(
      (await projects.findById(h.project.id))!.organizationId,
      'Merges',
    );
    await projects.update(projectScope(project.id), { identityMerge: 'original' });
    const time = Math.floor(Date.now() / 1000) - 60;
    const merge = (a: string, b: string, n: number) => ({
      event: '$merge',
      properties: { time, $distinct_ids: [a, b], distinct_id: a, $insert_id: `merge-${n}` },
    });
    const merges = [
      ...Array.from({ length: MAX_CLUSTER_IDS - 1 }, (_, i) => merge(`alias-${i}`, 'big', i)),
      merge('newcomer', 'alias-3', MAX_CLUSTER_IDS),
    ];
    const response = await fetch(`${h.app.baseUrl}/import?strict=1`, {
      method: 'POST',
      body: JSON.stringify(merges),
      headers: {
        Authorization: `Basic ${Buffer.from(`${secret}:`).toString('base64')}`,
        'Content-Type': 'application/json',
      },
    });
    expect(response.status).toBe(200);
    const identities = new IdentityRepository(h.app.app.get(ClickHouseClient));
    await eventually(async () =>
      expect(await identities.clustersOf(projectScope(project.id), ['big'])).toHaveLength(MAX_CLUSTER_IDS),
    );
    expect(await identities.clustersOf(projectScope(project.id), ['newcomer'])).toEqual(['newcomer']);
    if (!kafka) return;
    // Through Kafka the refused link is a dead letter of the identities topic, with the reason.
    const settings = h.app.app.get(AppConfig).kafka!;
    const consumer = h.app.app.get(Kafka).consumer({ groupId: `${settings.topicPrefix}dlq-reader-${Date.now()}` });
    await consumer.connect();
    await consumer.subscribe({ topic: topicName(settings, 'identitiesDeadLetter'), fromBeginning: true });
    const letter = await new Promise<{ value: string; reason: string }>((resolve) => {
      void consumer.run({
        eachMessage: async ({ message }) =>
          resolve({ value: message.value!.toString(), reason: String(message.headers?.[DEAD_LETTER_HEADERS.reason]) }),
      });
    });
    await consumer.disconnect();
    expect(JSON.parse(letter.value)).toMatchObject({ projectId: project.id, a: 'newcomer', b: 'alias-3' });
    expect(letter.reason).toBe(`identity cluster would hold ${MAX_CLUSTER_IDS + 1} ids; at most ${MAX_CLUSTER_IDS}`);
  });
});
