import { AppConfig, ServiceName } from '@analytics/config';
import { EngineNeeds } from '@analytics/runtime';
import { SERVICE_MAP } from './service-map';

/** The engines a process running these services must open. */
export function engineNeeds(config: AppConfig, services: readonly ServiceName[] = config.services): EngineNeeds {
  const needs: EngineNeeds = {};
  for (const service of services) {
    for (const [engine, needed] of Object.entries(SERVICE_MAP[service].engines) as [keyof EngineNeeds, boolean][]) {
      if (needed) needs[engine] = true;
    }
  }
  // Without a broker the gateway hands batches to the writer code in-process, which writes ClickHouse.
  if (!config.kafka) {
    if (needs.kafka) needs.clickhouse = true;
    needs.kafka = false;
  }
  return needs;
}
