import Mixpanel from 'mixpanel';
import { ProfilesHarness, queried, startProfilesHarness } from './profiles-harness';

/** What the SDK handed its callback: nothing on success, an Error otherwise. */
const outcome = (send: (callback: (error: Error | undefined) => void) => void) =>
  new Promise<Error | undefined>((resolve) => send(resolve));
const quietLogger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/;
/** The SDK's typings say string, but it takes a Date (sent as ms) or a number, and throws on a string. */
const FIRST_TIME = new Date('2024-05-01T10:00:00Z') as unknown as string;

describe('mixpanel-node (the official server SDK) people.* and groups.* against the gateway', () => {
  let h: ProfilesHarness;

  beforeAll(async () => {
    h = await startProfilesHarness();
    expect((await h.defineGroupKey('company')).status).toBe(201);
  });
  afterAll(() => h?.close());

  describe.each([
    { mode: 'default', verbose: false },
    { mode: 'verbose', verbose: true },
  ])('answering the $mode way', ({ mode, verbose }) => {
    const client = () =>
      Mixpanel.init(h.project.token, {
        host: new URL(h.app.baseUrl).host,
        protocol: 'http',
        verbose,
        logger: quietLogger,
      });

    it('people.*: every call succeeds and the profile reads back exactly as the calls made it', async () => {
      const mixpanel = client();
      const [user, other] = [`${mode}-ada`, `${mode}-bob`];
      const calls: ((done: (error: Error | undefined) => void) => void)[] = [
        (done) =>
          mixpanel.people.set(
            user,
            { plan: 'pro', $email: 'ada@example.com', $name: 'Ada', ip: '203.0.113.9' },
            { $time: FIRST_TIME },
            done,
          ),
        (done) => mixpanel.people.set(user, 'single', 'value', done),
        (done) => mixpanel.people.set_once(user, { plan: 'free', first_plan: 'pro' }, done),
        (done) => mixpanel.people.increment(user, 'logins', 1, done),
        (done) => mixpanel.people.increment(user, { logins: 2, points: -1.5 }, done),
        (done) => mixpanel.people.append(user, 'tags', 'a', done),
        (done) => mixpanel.people.append(user, { tags: 'b' }, done),
        (done) => mixpanel.people.append(user, { tags: 'a' }, done),
        (done) => mixpanel.people.union(user, { langs: ['en', 'fr'] }, done),
        (done) => mixpanel.people.union(user, { langs: 'en' }, done),
        (done) => mixpanel.people.remove(user, { tags: 'a' }, done),
        (done) => mixpanel.people.unset(user, 'single', done),
        (done) => mixpanel.people.unset(user, ['nothing'], done),
        (done) =>
          mixpanel.people.track_charge(user, 9.99, { $time: new Date('2024-05-02T00:00:00Z'), sku: 'x1' }, done),
        (done) => mixpanel.people.set(other, { plan: 'free' }, { $ignore_time: true }, done),
        (done) => mixpanel.people.track_charge(other, 5, done),
        (done) => mixpanel.people.clear_charges(other, done),
        (done) => mixpanel.people.set(`${mode}-gone`, { doomed: true }, done),
        (done) => mixpanel.people.delete_user(`${mode}-gone`, { $ignore_alias: true }, done),
      ];
      for (const call of calls) expect(await outcome(call)).toBeUndefined();

      const profiles = await queried(h, [user, other, `${mode}-gone`]);
      expect([...profiles.keys()]).toEqual([user, other]);
      expect(profiles.get(user)).toEqual({
        plan: 'pro',
        $email: 'ada@example.com',
        $name: 'Ada',
        first_plan: 'pro',
        logins: 3,
        points: -1.5,
        tags: ['b'],
        langs: ['en', 'fr'],
        $transactions: [{ $amount: 9.99, $time: '2024-05-02T00:00:00.000Z', sku: 'x1' }],
        $created: '2024-05-01T10:00:00',
        $last_seen: expect.stringMatching(TIMESTAMP),
      });
      expect(String(profiles.get(user)!.$last_seen) > '2024-05-01T10:00:00').toBe(true);
      // $ignore_time on the creating $set: no $last_seen until an $append moved it.
      expect(profiles.get(other)).toEqual({
        plan: 'free',
        $transactions: [],
        $created: expect.stringMatching(TIMESTAMP),
        $last_seen: expect.stringMatching(TIMESTAMP),
      });
    });

    it('groups.*: every call succeeds and the group profile reads back exactly', async () => {
      const mixpanel = client();
      const [acme, gone] = [`${mode}-acme`, `${mode}-gone-corp`];
      const calls: ((done: (error: Error | undefined) => void) => void)[] = [
        (done) => mixpanel.groups.set('company', acme, { $name: 'Acme Inc.', industry: 'anvils' }, done),
        (done) => mixpanel.groups.set('company', acme, 'seats', 10, done),
        (done) => mixpanel.groups.set_once('company', acme, { industry: 'rockets', founded: 1949 }, done),
        (done) => mixpanel.groups.union('company', acme, { products: ['anvil', 'rocket'] }, done),
        (done) => mixpanel.groups.remove('company', acme, { products: 'anvil' }, done),
        (done) => mixpanel.groups.unset('company', acme, 'seats', done),
        (done) => mixpanel.groups.set('company', gone, { x: 1 }, done),
        (done) => mixpanel.groups.delete_group('company', gone, done),
      ];
      for (const call of calls) expect(await outcome(call)).toBeUndefined();

      const groups = await queried(h, [acme, gone], { data_group_id: 'company' });
      expect([...groups.entries()]).toEqual([
        [
          acme,
          {
            $name: 'Acme Inc.',
            industry: 'anvils',
            founded: 1949,
            products: ['rocket'],
            $created: expect.stringMatching(TIMESTAMP),
            $last_seen: expect.stringMatching(TIMESTAMP),
          },
        ],
      ]);
    });

    it('reports a refused update as an error', async () => {
      const mixpanel = client();
      const error = await outcome((done) => mixpanel.groups.set('undefined-key', 'x', { a: 1 }, done));
      expect(error?.message).toMatch(
        verbose ? /\$group_key "undefined-key" is not defined/ : /Mixpanel Server Error: 0/,
      );
    });
  });
});
