import { AppConfig } from '@analytics/config';

/** The data dictionary's settings: a slice of AppConfig (SCHEMA_WRITES_PER_MINUTE, DICTIONARY_*). */
export class DictionarySettings {
  constructor(
    /** Schema writes (uploads and deletes) per organization per minute: the real API's 5. */
    readonly schemaWritesPerMinute = 5,
    /** How long a gateway trusts its copy of a project's dropped events and properties. */
    readonly cacheTtlMs = 2_000,
    /** How far back `GET /schemas/seen` looks for events actually received. */
    readonly seenDays = 30,
  ) {}

  static fromConfig({ dictionary }: AppConfig): DictionarySettings {
    return new DictionarySettings(dictionary.schemaWritesPerMinute, dictionary.cacheTtlMs, dictionary.seenDays);
  }
}
