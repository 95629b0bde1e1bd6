import { DictionaryError } from './dictionary-error';
import { droppingOf, mergeSchema, parseSchema, parseSchemaEntry, SchemaDocument } from './schema-document';

const problem = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof DictionaryError) return `${error.status} ${error.message}`;
    throw error;
  }
  throw new Error('no error');
};

describe('parseSchema', () => {
  it('accepts the spec subset, keeping other JSON-Schema keywords as sent', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema',
      description: 'Tracked when a user adds an item to their cart.',
      required: ['item_name'],
      additionalProperties: true,
      metadata: {
        'com.mixpanel': {
          tags: ['Shopping'],
          displayName: 'Item Purchased',
          hidden: false,
          dropped: false,
          owners: [{ name: 'Pat', email: 'pat@example.com' }],
          $source: 'csv',
        },
      },
      properties: {
        item_name: {
          type: 'string',
          description: 'The name',
          examples: ['Blue Widget'],
          metadata: { 'com.mixpanel': { displayName: 'Item Name' } },
        },
        date_added: { type: 'string', format: 'date-time' },
      },
    };
    expect(parseSchema(schema, 'event')).toEqual(schema);
    for (const type of ['string', 'number', 'boolean', 'array', 'object', 'integer', 'null'])
      expect(() => parseSchema({ properties: { p: { type } } }, 'profile')).not.toThrow();
  });

  it.each([
    ['not an object', [], 'schema: must be a JSON object'],
    ['a description that is no string', { description: 3 }, 'schema.description: must be a string'],
    [
      'properties that are no object',
      { properties: [] },
      'schema.properties: must be an object of property definitions',
    ],
    [
      'a property without a type',
      { properties: { a: { description: 'x' } } },
      'schema.properties.a.type: is required, one of string, number, boolean, array, object, integer, null',
    ],
    ['a type outside the seven', { properties: { a: { type: 'date' } } }, 'schema.properties.a.type: is required'],
    [
      'a property that is no object',
      { properties: { a: 'string' } },
      'schema.properties.a: must be an object with a type',
    ],
    [
      'an unknown metadata namespace',
      { metadata: { 'com.other': {} } },
      'schema.metadata.com.other: unknown metadata namespace; use com.vendor or com.mixpanel',
    ],
    [
      'an unknown entity metadata key',
      { metadata: { 'com.vendor': { colour: 'red' } } },
      'schema.metadata.com.vendor.colour: unknown metadata key',
    ],
    [
      'an entity-only key on a property',
      { properties: { a: { type: 'string', metadata: { 'com.vendor': { tags: [] } } } } },
      'schema.properties.a.metadata.com.vendor.tags: unknown metadata key',
    ],
    [
      'a metadata value of the wrong type',
      { metadata: { 'com.vendor': { hidden: 'yes' } } },
      'schema.metadata.com.vendor.hidden: must be true or false (or null to remove it)',
    ],
    [
      'owners of the wrong shape',
      { metadata: { 'com.vendor': { owners: [{ phone: '1' }] } } },
      'schema.metadata.com.vendor.owners: must be an array of {"name", "email"} objects',
    ],
    ['a namespace that is null', { metadata: { 'com.vendor': null } }, 'schema.metadata.com.vendor: must be an object'],
    [
      'two namespaces in one upload',
      { metadata: { 'com.vendor': {} }, properties: { a: { type: 'string', metadata: { 'com.mixpanel': {} } } } },
      'schema: metadata uses both com.vendor and com.mixpanel; use one namespace throughout',
    ],
    [
      'a dropped reserved property',
      { properties: { time: { type: 'integer', metadata: { 'com.vendor': { dropped: true } } } } },
      'schema.properties.time: time is part of every event and cannot be dropped',
    ],
  ])('refuses %s with 400', (_, schema, message) => {
    expect(problem(() => parseSchema(schema, 'event'))).toContain(`400 ${message}`);
  });

  it('lets only event schemas drop data', () => {
    expect(problem(() => parseSchema({ metadata: { 'com.vendor': { dropped: true } } }, 'profile'))).toBe(
      '400 schema.metadata.com.vendor.dropped: only event schemas can drop data',
    );
    expect(
      problem(() =>
        parseSchema(
          { properties: { plan: { type: 'string', metadata: { 'com.vendor': { dropped: true } } } } },
          'profile',
        ),
      ),
    ).toContain('only event schemas can drop data');
    expect(() =>
      parseSchema(
        { properties: { plan: { type: 'string', metadata: { 'com.vendor': { hidden: true, dropped: false } } } } },
        'profile',
      ),
    ).not.toThrow();
  });
});

describe('parseSchemaEntry', () => {
  it('takes the schema as schema (our spec) or schemaJson (the real API)', () => {
    const schema = { description: 'd' };
    expect(parseSchemaEntry({ entityType: 'event', name: 'E', schema }, 'entries[0]')).toEqual({
      entityType: 'event',
      name: 'E',
      schema,
    });
    expect(parseSchemaEntry({ entityType: 'profile', name: '$user', schemaJson: schema }, 'entries[0]')).toEqual({
      entityType: 'profile',
      name: '$user',
      schema,
    });
  });

  it.each([
    [
      'both forms',
      { entityType: 'event', name: 'E', schema: {}, schemaJson: {} },
      '400 entries[2]: give the schema as either schema or schemaJson',
    ],
    ['no schema', { entityType: 'event', name: 'E' }, '400 entries[2]: give the schema as either schema or schemaJson'],
    [
      'an unknown entity type',
      { entityType: 'group', name: 'E', schema: {} },
      '400 entries[2].entityType must be event or profile, got "group"',
    ],
    [
      'an empty name',
      { entityType: 'event', name: '', schema: {} },
      '400 entries[2].name: must be a string of 1 to 255 characters',
    ],
    [
      'an unknown field',
      { entityType: 'event', name: 'E', schema: {}, extra: 1 },
      '400 entries[2]: unknown field "extra"',
    ],
    [
      'a bad schema',
      { entityType: 'event', name: 'E', schema: { properties: { a: {} } } },
      '400 entries[2].schema.properties.a.type',
    ],
  ])('refuses %s', (_, entry, message) => {
    expect(problem(() => parseSchemaEntry(entry, 'entries[2]'))).toContain(message);
  });
});

describe('mergeSchema', () => {
  const stored: SchemaDocument = {
    description: 'old',
    metadata: { 'com.vendor': { hidden: true, displayName: 'Old', tags: ['a'] } },
    properties: {
      kept: { type: 'string', metadata: { 'com.vendor': { hidden: true, displayName: 'Kept' } } },
      gone: { type: 'string', metadata: { 'com.vendor': { dropped: true } } },
    },
  };

  it('replaces the schema but keeps metadata keys the upload omits, and removes keys set to null', () => {
    const upload: SchemaDocument = {
      description: 'new',
      metadata: { 'com.vendor': { displayName: 'New', tags: null } },
      properties: {
        kept: { type: 'number', metadata: { 'com.vendor': { displayName: null } } },
        added: { type: 'boolean' },
      },
    };
    expect(mergeSchema(stored, upload)).toEqual({
      description: 'new',
      metadata: { 'com.vendor': { hidden: true, displayName: 'New' } },
      properties: {
        kept: { type: 'number', metadata: { 'com.vendor': { hidden: true } } },
        added: { type: 'boolean' },
      },
    });
  });

  it('keeps all metadata when the upload carries none', () => {
    expect(mergeSchema(stored, { description: 'new' })).toEqual({
      description: 'new',
      metadata: { 'com.vendor': { hidden: true, displayName: 'Old', tags: ['a'] } },
    });
  });

  it('answers under the namespace of the latest upload that named one', () => {
    const real = mergeSchema(stored, { metadata: { 'com.mixpanel': { dropped: true } } });
    expect(real.metadata).toEqual({ 'com.mixpanel': { hidden: true, displayName: 'Old', tags: ['a'], dropped: true } });
    expect(mergeSchema(real, { description: 'x' }).metadata).toEqual({
      'com.mixpanel': { hidden: true, displayName: 'Old', tags: ['a'], dropped: true },
    });
    expect(
      mergeSchema(undefined, { properties: { p: { type: 'string', metadata: { 'com.mixpanel': { hidden: true } } } } }),
    ).toEqual({ properties: { p: { type: 'string', metadata: { 'com.mixpanel': { hidden: true } } } } });
  });

  it('leaves out metadata that ends up empty', () => {
    expect(
      mergeSchema({ metadata: { 'com.vendor': { hidden: true } } }, { metadata: { 'com.vendor': { hidden: null } } }),
    ).toEqual({});
  });
});

describe('droppingOf', () => {
  it('reads what an event schema drops; profiles drop nothing', () => {
    const schema: SchemaDocument = {
      metadata: { 'com.mixpanel': { dropped: false } },
      properties: { a: { type: 'string', metadata: { 'com.mixpanel': { dropped: true } } }, b: { type: 'string' } },
    };
    expect(droppingOf('event', schema)).toEqual({ dropped: false, droppedProperties: ['a'] });
    expect(droppingOf('event', { metadata: { 'com.vendor': { dropped: true } } })).toEqual({
      dropped: true,
      droppedProperties: [],
    });
    expect(droppingOf('profile', schema)).toEqual({ dropped: false, droppedProperties: [] });
  });
});
