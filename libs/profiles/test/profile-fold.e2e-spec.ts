import { eventually } from '@analytics/testing';
import { ProfilesHarness, startProfilesHarness } from './profiles-harness';

jest.setTimeout(90_000);

/**
 * A profile stored under an id before it joins a cluster folds into the person's one profile
 * (docs/identity.md, "Profiles"): the link comes from an event as the browser SDK sends it after
 * `identify()`, through the whole pipeline, in-process and through Kafka (identities topic,
 * identity writer, profile folding beside the profiles writer).
 */
describe.each([
  { transport: 'in-process', kafka: false },
  { transport: 'Kafka', kafka: true },
])('profile folding on merge, $transport', ({ kafka }) => {
  let h: ProfilesHarness;

  beforeAll(async () => {
    h = await startProfilesHarness({ kafka }, undefined, { events: true });
  });
  afterAll(() => h?.close());

  const engage = async (record: object) =>
    expect((await h.send('engage', [{ $token: h.project.token, ...record }])).status).toBe(200);
  const link = async (insertId: string) => {
    const event = {
      event: 'Signed in',
      properties: {
        time: Math.floor(Date.now() / 1000) - 10,
        $device_id: 'abc',
        $user_id: 'user-1',
        $insert_id: insertId,
      },
    };
    const response = await fetch(`${h.app.baseUrl}/import?strict=1`, {
      method: 'POST',
      headers: { Authorization: h.project.basic, 'Content-Type': 'application/json' },
      body: JSON.stringify([event]),
    });
    expect(response.status).toBe(200);
  };
  const queried = async (fields: Record<string, string> = {}) => {
    const { status, body } = await h.query(fields);
    expect(status).toBe(200);
    return body.results;
  };

  it("folds the device's profile into the user's: the user's values win, the rest is copied, the device's profile is gone", async () => {
    // Simplified (a new project's mode): an anonymous device profile, and the user's own.
    await engage({ $distinct_id: '$device:abc', $set: { utm_source: 'ad', plan: 'free' } });
    await engage({ $distinct_id: 'user-1', $set: { plan: 'pro' } });
    await eventually(async () =>
      expect([...(await h.stored(['$device:abc', 'user-1'])).keys()].sort()).toEqual(['$device:abc', 'user-1']),
    );

    await link('link-1');
    await eventually(async () => expect([...(await h.stored(['$device:abc', 'user-1'])).keys()]).toEqual(['user-1']));
    expect((await h.stored(['user-1'])).get('user-1')).toMatchObject({ plan: 'pro', utm_source: 'ad' });
    // The mirror follows: one profile in the whole project, found under either id.
    await eventually(async () =>
      expect(await queried()).toEqual([
        { $distinct_id: 'user-1', $properties: expect.objectContaining({ plan: 'pro', utm_source: 'ad' }) },
      ]),
    );
    expect((await queried({ distinct_id: '$device:abc' })).map((r) => r.$distinct_id)).toEqual(['user-1']);
    const device = await h.mirrorRows(['$device:abc']);
    expect(device.at(-1)).toMatchObject({ is_deleted: 1 });
  });

  it('folds nothing twice: the same link again leaves the person as it is', async () => {
    await engage({ $distinct_id: 'user-1', $unset: ['utm_source'] });
    await eventually(async () => expect((await h.stored(['user-1'])).get('user-1')).not.toHaveProperty('utm_source'));
    // The link arrives again (a retried request, a redelivered batch); later profile updates land on the user.
    await link('link-2');
    await engage({ $distinct_id: '$device:abc', $set: { seen_again: true } });
    await eventually(async () =>
      expect((await h.stored(['user-1'])).get('user-1')).toMatchObject({ seen_again: true }),
    );
    expect((await h.stored(['user-1'])).get('user-1')).not.toHaveProperty('utm_source');
    expect([...(await h.stored(['$device:abc'])).keys()]).toEqual([]);
  });
});
