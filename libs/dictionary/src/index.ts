export { EventDictionaryModule, SchemasStoreModule } from './dictionary.module';
export { SchemaEventDictionaryProvider } from './schema-event-dictionary.provider';
export { SchemasService, SeenListing } from './schemas.service';
export { StoredSchema } from './schemas.schema';
