export { DictionaryError, DictionaryErrorCode } from './dictionary-error';
export { DictionarySettings } from './dictionary-settings';
export { EventDictionaryModule, SchemasStoreModule } from './dictionary.module';
export { DropCounter, DroppingRule, buildEventDictionary } from './event-dictionary';
export {
  DEFAULT_NAMESPACE,
  ENTITY_TYPES,
  EntityType,
  METADATA_NAMESPACES,
  MetadataNamespace,
  mergeSchema,
  parseSchema,
  parseSchemaEntry,
  PROPERTY_TYPES,
  PropertyDefinition,
  SchemaDocument,
  SchemaEntry,
} from './schema-document';
export { SchemaEventDictionaryProvider } from './schema-event-dictionary.provider';
export { SchemasService, SeenListing } from './schemas.service';
export { StoredSchema } from './schemas.schema';
export { SeenDictionaryEvent, SeenProperty } from './seen-dictionary';
