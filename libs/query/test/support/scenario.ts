import { FunnelDefinition, InsightsParams } from '@analytics/report-definitions';
import { JsonObject } from '@analytics/expression';
import { StoredEvent } from './stored-events';

/**
 * Hand-written scenarios, one per file under test/scenarios/<report>/: events, the report as a
 * client would ask for it (saved definition and query parameters as strings), and the part of the
 * answer the case is about. scenarios.int-spec.ts runs each through the SQL and the reference.
 */

let processed = 1_900_000_000_000;

/** An event at an ISO time; the same `insertId` (and name, time, user) makes a duplicate. */
export function event(
  name: string,
  iso: string,
  distinctId: string,
  properties: JsonObject = {},
  insertId?: string,
): StoredEvent {
  const timeMs = Date.parse(iso);
  if (Number.isNaN(timeMs)) throw new Error(`not a time: ${iso}`);
  return {
    event: name,
    timeMs,
    distinctId,
    insertId: insertId ?? `${distinctId}-${name}-${timeMs}`,
    properties,
    processedMs: processed++,
  };
}

/** What every scenario has: a description, and the project's time zone (UTC when left out). */
interface ScenarioBase {
  description: string;
  timeZone?: string;
}

export interface FunnelScenario extends ScenarioBase {
  kind: 'funnel';
  funnel: FunnelDefinition;
  query: Record<string, string>;
  events: StoredEvent[];
  expected: unknown;
}

export interface RetentionScenario extends ScenarioBase {
  kind: 'retention';
  query: Record<string, string>;
  events: StoredEvent[];
  expected: unknown;
}

export interface SegmentationScenario extends ScenarioBase {
  /** `numeric`: /segmentation/numeric's ranges of `on`. */
  kind: 'segmentation' | 'numeric';
  query: Record<string, string>;
  events: StoredEvent[];
  expected: unknown;
}

export interface InsightsScenario extends ScenarioBase {
  kind: 'insights';
  params: InsightsParams;
  events: StoredEvent[];
  expected: unknown;
}

export interface FlowsScenario extends ScenarioBase {
  kind: 'flows';
  query: Record<string, string>;
  events: StoredEvent[];
  expected: unknown;
}

export type Scenario = FunnelScenario | RetentionScenario | SegmentationScenario | InsightsScenario | FlowsScenario;

export const funnelScenario = (s: Omit<FunnelScenario, 'kind'>): FunnelScenario => ({ kind: 'funnel', ...s });
export const retentionScenario = (s: Omit<RetentionScenario, 'kind'>): RetentionScenario => ({
  kind: 'retention',
  ...s,
});
export const segmentationScenario = (s: Omit<SegmentationScenario, 'kind'>): SegmentationScenario => ({
  kind: 'segmentation',
  ...s,
});
export const numericScenario = (s: Omit<SegmentationScenario, 'kind'>): SegmentationScenario => ({
  kind: 'numeric',
  ...s,
});
export const insightsScenario = (s: Omit<InsightsScenario, 'kind'>): InsightsScenario => ({ kind: 'insights', ...s });
export const flowsScenario = (s: Omit<FlowsScenario, 'kind'>): FlowsScenario => ({ kind: 'flows', ...s });
