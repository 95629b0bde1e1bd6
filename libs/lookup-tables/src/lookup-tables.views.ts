import { LookupTable } from './lookup-tables.repository';

/** A lookup table as the app API shows it. */
export function lookupTableJson(table: LookupTable) {
  return {
    id: table.id,
    name: table.name,
    mapped_to: table.mappedTo ? { source: table.mappedTo.source, property: table.mappedTo.property } : null,
    columns: table.columns,
    row_count: table.rowCount,
    modified: table.updatedAt.toISOString(),
  };
}

const TABLE = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    mapped_to: {
      type: 'object',
      nullable: true,
      properties: { source: { type: 'string', enum: ['event', 'profile'] }, property: { type: 'string' } },
    },
    columns: { type: 'array', items: { type: 'string' }, description: 'the CSV header after the key column' },
    row_count: { type: 'integer' },
    modified: { type: 'string', format: 'date-time' },
  },
};

/** The app API's envelope around a result schema, for OpenAPI. */
const okSchema = (results: object) => ({
  schema: { type: 'object', properties: { status: { type: 'string', enum: ['ok'] }, results } },
});

export const TABLE_RESPONSE = okSchema(TABLE);
export const TABLE_LIST_RESPONSE = okSchema({ type: 'array', items: TABLE });
export const DELETED_RESPONSE = okSchema({ type: 'object', properties: { id: { type: 'string' } } });

/** The ingestion host's answers, the real API's shapes. */
export const INGEST_LIST_RESPONSE = {
  schema: {
    type: 'object',
    properties: {
      code: { type: 'integer', enum: [200] },
      status: { type: 'string', enum: ['OK'] },
      results: {
        type: 'array',
        items: { type: 'object', properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' } } },
      },
    },
  },
};

export const INGEST_REPLACED_RESPONSE = {
  schema: {
    type: 'object',
    properties: { code: { type: 'integer', enum: [200] }, status: { type: 'string', enum: ['OK'] } },
  },
};

export const INGEST_ERROR_RESPONSE = {
  schema: {
    type: 'object',
    properties: {
      code: { type: 'integer' },
      error: { type: 'string' },
      status: { type: 'string' },
      failed_records: {
        type: 'array',
        items: { type: 'object', properties: { index: { type: 'integer' }, message: { type: 'string' } } },
      },
    },
  },
};
