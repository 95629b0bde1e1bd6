import { loadConfig } from '@analytics/config';
import { DictionarySettings } from './dictionary-settings';

describe('DictionarySettings', () => {
  it('defaults to the real API limit, a 2 s cache and 30 days; empty counts as unset', () => {
    expect(DictionarySettings.fromConfig(loadConfig({}))).toEqual(new DictionarySettings(5, 2000, 30));
    expect(
      DictionarySettings.fromConfig(loadConfig({ SCHEMA_WRITES_PER_MINUTE: ' ', DICTIONARY_CACHE_TTL_MS: '' })),
    ).toEqual(new DictionarySettings(5, 2000, 30));
  });

  it('reads raised values', () => {
    const config = loadConfig({
      SCHEMA_WRITES_PER_MINUTE: '600',
      DICTIONARY_CACHE_TTL_MS: '500',
      DICTIONARY_SEEN_DAYS: '7',
    });
    expect(DictionarySettings.fromConfig(config)).toEqual(new DictionarySettings(600, 500, 7));
  });

  it('names every bad variable in one message', () => {
    expect(() => loadConfig({ SCHEMA_WRITES_PER_MINUTE: 'five', DICTIONARY_CACHE_TTL_MS: '10' })).toThrow(
      /SCHEMA_WRITES_PER_MINUTE must be a whole number from 1 to 1000000 \(got "five"\)[\s\S]*DICTIONARY_CACHE_TTL_MS must be a whole number from 100 to 60000 \(got "10"\)/,
    );
  });
});
