import { PostgresKind, postgresServerAvailable } from '@analytics/testing';
import fc from 'fast-check';
import { ProfilesHarness, queried, startProfilesHarness } from './profiles-harness';
import { recordSequence, ReferenceProfiles, requests, toRecords } from './profile-reference';

/** Replay a failure with PROFILES_SEED=<the seed printed>; more cases with PROFILES_RUNS. */
const SEED = Number(process.env.PROFILES_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS = Number(process.env.PROFILES_RUNS ?? 30);
const PROFILES = 3;

/** The embedded default (PGlite) and the server, when there is one. */
const POSTGRES: PostgresKind[] = postgresServerAvailable() ? ['server', 'pglite'] : ['pglite'];

describe.each(POSTGRES)(
  `stored profiles and the reference semantics on the Postgres %s (PROFILES_SEED=${SEED})`,
  (postgres) => {
    let h: ProfilesHarness;

    // Two apps on PGlite start in seconds alone, but took over a minute on a machine at load 30.
    beforeAll(async () => {
      h = await startProfilesHarness({ postgres });
    }, 180_000);
    afterAll(() => h?.close());

    it('agree after any sequence of updates, sent in any split into requests (Postgres and the mirror)', async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          recordSequence(PROFILES),
          fc.array(fc.integer({ min: 1, max: 10 }), { maxLength: 8 }),
          async (generated, sizes) => {
            const prefix = `run${run++}`;
            const records = toRecords(prefix, generated);
            const reference = new ReferenceProfiles();
            records.forEach((record) => reference.apply(record));
            for (const request of requests(records, sizes)) {
              const answer = await h.send(
                'engage',
                request.map((r) => ({ ...r, $token: h.project.token })),
              );
              expect(answer.status).toBe(200);
            }
            const ids = Array.from({ length: PROFILES }, (_, i) => `${prefix}-${i}`);
            const expected = new Map(
              ids.flatMap((id) => (reference.properties(id) ? [[id, reference.properties(id)]] : [])),
            );
            expect(await h.stored(ids)).toEqual(expected);
            expect(await queried(h, ids)).toEqual(expected);
          },
        ),
        { seed: SEED, numRuns: RUNS },
      );
    });
  },
);
