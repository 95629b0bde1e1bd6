import { AppConfig, ServiceName } from '@analytics/config';
import { EngineNeeds } from '@analytics/runtime';
import { ServiceDefinition, SERVICE_MAP } from './service-map';

/** The union of one field of these services' rows. */
function unionOf(services: readonly ServiceName[], field: 'engines' | 'readiness'): EngineNeeds {
  const union: EngineNeeds = {};
  for (const service of services) {
    const row: ServiceDefinition = SERVICE_MAP[service];
    for (const [engine, needed] of Object.entries(row[field]) as [keyof EngineNeeds, boolean][]) {
      if (needed) union[engine] = true;
    }
  }
  return union;
}

/** The engines a process running these services must open. */
export function engineNeeds(config: AppConfig, services: readonly ServiceName[] = config.services): EngineNeeds {
  const needs = unionOf(services, 'engines');
  // Without a broker the gateway hands batches to the writer code in-process, which writes ClickHouse.
  if (!config.kafka) {
    if (needs.kafka) needs.clickhouse = true;
    needs.kafka = false;
  }
  return needs;
}

/**
 * The engines the readiness of a process running these services probes: the union of the rows'
 * `readiness`. Without a broker the gateway writes in-process, so it needs every engine it opens.
 */
export function readinessNeeds(config: AppConfig, services: readonly ServiceName[] = config.services): EngineNeeds {
  const ready = unionOf(services, 'readiness');
  return !config.kafka && ready.kafka ? engineNeeds(config, services) : ready;
}
