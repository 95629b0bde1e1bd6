import { AppConfig, ServiceName } from '@analytics/config';
import { EngineNeeds } from './platform.module';

const NEEDS: Record<ServiceName, EngineNeeds> = {
  // Without a broker the gateway hands batches to the writer code in-process, which writes ClickHouse.
  ingest: { postgres: true, kafka: true },
  writer: { postgres: true, kafka: true, clickhouse: true },
  query: { postgres: true, clickhouse: true },
  export: { postgres: true, clickhouse: true },
  management: { postgres: true, clickhouse: true },
  compliance: { postgres: true, clickhouse: true },
};

/** The engines a process running these services must open. */
export function engineNeeds(config: AppConfig, services: readonly ServiceName[] = config.services): EngineNeeds {
  const needs: EngineNeeds = {};
  for (const service of services) {
    for (const [engine, needed] of Object.entries(NEEDS[service]) as [keyof EngineNeeds, boolean][]) {
      if (needed) needs[engine] = true;
    }
  }
  if (!config.kafka) {
    if (needs.kafka) needs.clickhouse = true;
    needs.kafka = false;
  }
  return needs;
}
