import { ClickHouseClient } from '@analytics/clickhouse';
import { Postgres } from '@analytics/postgres';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { Kafka } from 'kafkajs';

export type EngineName = 'clickhouse' | 'postgres' | 'kafka';

export interface EngineProbe {
  engine: EngineName;
  check(): Promise<void>;
}

const PROBE_TIMEOUT_MS = 3_000;

function withTimeout(engine: string, work: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${engine} did not answer within ${PROBE_TIMEOUT_MS} ms`)),
      PROBE_TIMEOUT_MS,
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Pings each engine this process was configured with; a service without one skips its check. */
@Injectable()
export class EngineProbes {
  readonly probes: EngineProbe[] = [];

  constructor(
    @Optional() @Inject(ClickHouseClient) clickhouse?: ClickHouseClient,
    @Optional() postgres?: Postgres,
    @Optional() kafka?: Kafka,
  ) {
    if (clickhouse) {
      this.probes.push({
        engine: 'clickhouse',
        check: async () => {
          const result = await clickhouse.ping();
          if (!result.success) throw result.error;
        },
      });
    }
    if (postgres) this.probes.push({ engine: 'postgres', check: () => postgres.ping() });
    if (kafka) {
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
  async probe(): Promise<{ engine: EngineName; up: boolean; seconds: number; error?: string }[]> {
    return Promise.all(
      this.probes.map(async ({ engine, check }) => {
        const started = process.hrtime.bigint();
        try {
          await withTimeout(engine, check());
          return { engine, up: true, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
        } catch (error) {
          return {
            engine,
            up: false,
            seconds: Number(process.hrtime.bigint() - started) / 1e9,
            error: (error as Error).message,
          };
        }
      }),
    );
  }
}
