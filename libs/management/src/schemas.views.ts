import { SeenListing, StoredSchema } from '@analytics/dictionary';
import { ok } from '@analytics/http';

/** A schema entry as the real API lists it. */
export const schemaEntryJson = (schema: StoredSchema) => ({
  entityType: schema.entityType,
  name: schema.name,
  schemaJson: schema.schemaJson,
});

export const seenJson = (listing: SeenListing) => ({ since: listing.since.toISOString(), events: listing.events });

export const deleted = (count: number) => ok({ delete_count: count });

export { ok };
