'use strict';
// Jest's output, then, as the very last line, one JSON object summing the modes' figures:
// {requests, five_xx, crashes, lost, duplicated, fused, by_status, seconds, modes}.
const ResultsReporter = require('../support/results-reporter');

class FuzzReporter extends ResultsReporter {
  constructor(globalConfig) {
    super(globalConfig, 'FUZZ_RESULTS_DIR', 'fuzz');
  }

  summarize(results, aggregated) {
    const total = {
      requests: 0,
      five_xx: 0,
      crashes: 0,
      lost: 0,
      duplicated: 0,
      fused: 0,
      acked_events: 0,
      timeouts: 0,
      by_status: {},
      seconds: 0,
    };
    for (const r of results) {
      for (const key of [
        'requests',
        'five_xx',
        'crashes',
        'lost',
        'duplicated',
        'fused',
        'acked_events',
        'timeouts',
        'seconds',
      ])
        total[key] += r[key];
      for (const [status, n] of Object.entries(r.by_status))
        total.by_status[status] = (total.by_status[status] ?? 0) + n;
    }
    const seed = results[0]?.seed;
    const modes = Object.fromEntries(
      results.map((r) => [
        r.mode,
        {
          requests: r.requests,
          five_xx: r.five_xx,
          crashes: r.crashes,
          lost: r.lost,
          duplicated: r.duplicated,
          fused: r.fused,
          seconds: r.seconds,
          cases_file: r.cases_file,
        },
      ]),
    );
    const incomplete = aggregated.numRuntimeErrorTestSuites > 0 || results.length === 0 ? { incomplete: true } : {};
    return [JSON.stringify({ ...total, seed, modes, ...incomplete })];
  }
}

module.exports = FuzzReporter;
