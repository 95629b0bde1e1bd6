import { metadataOf, SchemaDocument } from './schema-document';
import { SeenEvent } from './seen-events.repository';

export interface SeenProperty {
  name: string;
  /** Received in the window. */
  seen: boolean;
  /** Has a definition in the event's schema. */
  described: boolean;
  hidden: boolean;
  dropped: boolean;
}

export interface SeenDictionaryEvent {
  name: string;
  /** Events received in the window (0: described, not received). */
  count: number;
  described: boolean;
  hidden: boolean;
  dropped: boolean;
  properties: SeenProperty[];
}

export interface DescribedEvent {
  name: string;
  schema: SchemaDocument;
}

const flag = (node: Parameters<typeof metadataOf>[0], key: 'hidden' | 'dropped') => metadataOf(node)?.[key] === true;

function properties(seen: readonly string[], schema: SchemaDocument | undefined): SeenProperty[] {
  const definitions = schema?.properties ?? {};
  const seenNames = new Set(seen);
  const names = [...new Set([...seen, ...Object.keys(definitions)])].sort();
  return names.map((name) => ({
    name,
    seen: seenNames.has(name),
    described: name in definitions,
    hidden: flag(definitions[name], 'hidden'),
    dropped: flag(definitions[name], 'dropped'),
  }));
}

/**
 * The events actually received beside those described, so the dictionary can be filled in:
 * received events first (most frequent first), then described events not received in the window.
 */
export function seenDictionary(
  described: readonly DescribedEvent[],
  seen: readonly SeenEvent[],
): SeenDictionaryEvent[] {
  const schemas = new Map(described.map((entry) => [entry.name, entry.schema]));
  const entry = (name: string, count: number, seenProperties: readonly string[]): SeenDictionaryEvent => {
    const schema = schemas.get(name);
    return {
      name,
      count,
      described: schema !== undefined,
      hidden: flag(schema, 'hidden'),
      dropped: flag(schema, 'dropped'),
      properties: properties(seenProperties, schema),
    };
  };
  const received = new Set(seen.map((event) => event.name));
  const unseen = described
    .filter((event) => !received.has(event.name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return [
    ...seen.map((event) => entry(event.name, Number(event.count), event.properties)),
    ...unseen.map((event) => entry(event.name, 0, [])),
  ];
}
