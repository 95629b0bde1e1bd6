import { ClickHouseClient } from '@analytics/clickhouse';
import { Postgres } from '@analytics/postgres';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { Kafka } from 'kafkajs';

export type EngineName = 'clickhouse' | 'postgres' | 'kafka';

/** The engines a service cannot serve without: its readiness checks these and no others. */
export const READINESS_ENGINES = Symbol('READINESS_ENGINES');

export interface EngineProbe {
  engine: EngineName;
  check(): Promise<void>;
}

export interface ProbeOutcome {
  engine: EngineName;
  up: boolean;
  seconds: number;
  error?: string;
}

const PROBE_TIMEOUT_MS = 3_000;

/** `work`, or a rejection naming `what` once PROBE_TIMEOUT_MS has passed: a probe always settles. */
export function withTimeout<T>(what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not answer within ${PROBE_TIMEOUT_MS} ms`)),
      PROBE_TIMEOUT_MS,
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Pings the engines this service needs to serve (READINESS_ENGINES, among those the process opened).
 * Only /readyz probes; /metrics shows the last outcomes, so a scrape never reaches an engine.
 */
@Injectable()
export class EngineProbes {
  readonly probes: EngineProbe[] = [];
  /** The outcome of each engine's last probe. */
  readonly last = new Map<EngineName, ProbeOutcome>();

  constructor(
    @Inject(READINESS_ENGINES) ready: readonly EngineName[],
    @Optional() @Inject(ClickHouseClient) clickhouse?: ClickHouseClient,
    @Optional() postgres?: Postgres,
    @Optional() kafka?: Kafka,
  ) {
    if (clickhouse && ready.includes('clickhouse')) {
      this.probes.push({
        engine: 'clickhouse',
        check: async () => {
          const result = await clickhouse.ping();
          if (!result.success) throw result.error;
        },
      });
    }
    if (postgres && ready.includes('postgres')) this.probes.push({ engine: 'postgres', check: () => postgres.ping() });
    if (kafka && ready.includes('kafka')) {
      this.probes.push({
        engine: 'kafka',
        check: async () => {
          const admin = kafka.admin();
          await admin.connect();
          try {
            await admin.describeCluster();
          } finally {
            await admin.disconnect();
          }
        },
      });
    }
  }

  /** Runs every probe, bounded in time; resolves with each engine's outcome. */
  async probe(): Promise<ProbeOutcome[]> {
    return Promise.all(
      this.probes.map(async ({ engine, check }) => {
        const started = process.hrtime.bigint();
        const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
        let outcome: ProbeOutcome;
        try {
          await withTimeout(engine, check());
          outcome = { engine, up: true, seconds: seconds() };
        } catch (error) {
          outcome = { engine, up: false, seconds: seconds(), error: (error as Error).message };
        }
        this.last.set(engine, outcome);
        return outcome;
      }),
    );
  }
}
