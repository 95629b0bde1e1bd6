import { EventDictionary } from '@analytics/events';

/** What the dictionary drops for one event name: the whole event, or some of its properties. */
export interface DroppingRule {
  event: string;
  dropped: boolean;
  droppedProperties: readonly string[];
}

/** Told about every piece of data dropped, so it is counted (never stored). */
export interface DropCounter {
  eventDropped(): void;
  propertyDropped(): void;
}

/**
 * Validation asks `has(name)` once for each property an event carries (reserved ones aside), and
 * leaves out those it answers true for: counting those answers counts exactly the dropped properties.
 */
class DroppedProperties extends Set<string> {
  constructor(
    names: readonly string[],
    private readonly counter: DropCounter,
  ) {
    super(names);
  }

  override has(name: string): boolean {
    const dropped = super.has(name);
    if (dropped) this.counter.propertyDropped();
    return dropped;
  }
}

/** The project's rules as the ingestion validator reads them; undefined when nothing is dropped. */
export function buildEventDictionary(
  rules: readonly DroppingRule[],
  counter: DropCounter,
): EventDictionary | undefined {
  const droppedEvents = new Set(rules.filter((rule) => rule.dropped).map((rule) => rule.event));
  const droppedProperties = new Map(
    rules
      .filter((rule) => !rule.dropped && rule.droppedProperties.length)
      .map((rule) => [rule.event, new DroppedProperties(rule.droppedProperties, counter)]),
  );
  if (!droppedEvents.size && !droppedProperties.size) return undefined;
  return {
    // Validation asks once per event, and skips the event when told true.
    isEventDropped(event: string): boolean {
      const dropped = droppedEvents.has(event);
      if (dropped) counter.eventDropped();
      return dropped;
    },
    droppedProperties: (event: string) => droppedProperties.get(event),
  };
}
