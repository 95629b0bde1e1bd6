import { runFuzz } from './fuzz-run';

/** Fixed, so that a failure here is the same failure on every machine (the long form draws a new seed each run). */
const SEED = 20_261_124;
const REQUESTS = Number(process.env.FUZZ_SHORT_REQUESTS ?? 3_000);

/**
 * The short form of `npm run test:fuzz` (see docs/fuzz.md): a few thousand hostile requests over every
 * route of the role matrix, interleaved with good ingestion and reads, against the built standalone
 * in its embedded mode.
 */
describe('hostile requests against the standalone', () => {
  it(`answers ${REQUESTS} hostile and good requests with no 5xx and no crash, and stores every acknowledged event exactly once, under its own person`, async () => {
    const result = await runFuzz({ requests: REQUESTS, seed: SEED, timeLimitMs: 75_000 });
    process.stdout.write(`${JSON.stringify(result)}\n`);
    expect(result.requests).toBeGreaterThan(0);
    expect(result.acked_events).toBeGreaterThan(0);
    expect({
      five_xx: result.five_xx,
      crashes: result.crashes,
      lost: result.lost,
      duplicated: result.duplicated,
      fused: result.fused,
    }).toEqual({ five_xx: 0, crashes: 0, lost: 0, duplicated: 0, fused: 0 });
  }, 240_000);
});
