import { testKafkaBrokers } from '@analytics/testing';
import { recordFuzzResult } from './fuzz-results';
import { runFuzz } from './fuzz-run';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 100_000);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2_147_483_647;
const MODES = (process.env.FUZZ_MODES ?? 'embedded,kafka').split(',').map((m) => m.trim());
const TIME_LIMIT_MS = Number(process.env.FUZZ_TIME_LIMIT_S ?? 7_200) * 1000;

process.stdout.write(
  `fuzz seed ${SEED} (set FUZZ_SEED=${SEED} to replay it), ${REQUESTS} requests per mode, modes ${MODES.join(', ')}\n`,
);

/**
 * `npm run test:fuzz`: the long form, by default 100,000 requests against the embedded standalone and
 * as many against one on the Kafka bus (the broker global setup started). FUZZ_REQUESTS, FUZZ_SEED,
 * FUZZ_MODES and FUZZ_TIME_LIMIT_S (per mode) change it.
 */
describe.each(MODES)('hostile requests against the standalone (%s)', (mode) => {
  it(
    'answers every request below 500, never crashes, and stores every acknowledged event exactly once, under its own person',
    async () => {
      const result = await runFuzz({
        requests: REQUESTS,
        seed: SEED,
        kafkaBrokers: mode === 'kafka' ? testKafkaBrokers() : undefined,
        timeLimitMs: TIME_LIMIT_MS,
      });
      recordFuzzResult(result);
      expect({
        five_xx: result.five_xx,
        crashes: result.crashes,
        lost: result.lost,
        duplicated: result.duplicated,
        fused: result.fused,
      }).toEqual({ five_xx: 0, crashes: 0, lost: 0, duplicated: 0, fused: 0 });
    },
    TIME_LIMIT_MS + 600_000,
  );
});
