import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pipeline } from './pipeline-definition';
import { eventsObjectKey, peopleObjectKey, tablesOf } from './pipeline-layout';
import { parseCreatePipeline } from './pipeline-request';
import { loadStatements } from './warehouse-statements';

/** The load and merge statements each warehouse runs, kept as golden files (no emulator exists): `UPDATE_GOLDEN=1` rewrites them. */
const golden = (name: string, text: string) => {
  const path = join(__dirname, '..', 'test', 'golden', name);
  if (process.env.UPDATE_GOLDEN) writeFileSync(path, text);
  expect(text).toBe(readFileSync(path, 'utf8'));
};

const KEYS = { s3_access_key_id: 'HMACKEY', s3_secret_access_key: 'HMACSECRET' };
const pipeline = (fields: Record<string, string>): Pipeline => ({
  ...parseCreatePipeline({ from_date: '2026-11-01', ...fields }, 7, '2026-11-24').definitions[0],
  id: 1,
  state: 'active',
  createdAt: new Date('2026-11-24T00:00:00Z'),
});
const window = { start: new Date('2026-11-02T00:00:00Z'), end: new Date('2026-11-03T00:00:00Z') };
const objects = (p: Pipeline, events: string[]) =>
  [...tablesOf(p, events).keys()].map((table) => ({ table, key: eventsObjectKey(p, table, window) }));

describe('warehouse load statements', () => {
  it('BigQuery: load the staged Parquet file, merge it into the table replacing the window', () => {
    const p = pipeline({
      type: 'bigquery',
      gcs_bucket: 'staging-bucket',
      gcs_prefix: 'mp',
      bq_region: 'US',
      gcp_project: 'acme',
      data_format: 'parquet',
      ...KEYS,
    });
    golden('bigquery-monoschema-parquet.sql', loadStatements(p, window, objects(p, ['Signed up', 'Purchase'])));
  });

  it('BigQuery (warehouse_a): multischema JSON, one table per cleaned event name', () => {
    const p = pipeline({
      type: 'warehouse_a',
      gcs_bucket: 'staging-bucket',
      wha_region: 'EU',
      wha_dataset_name: 'analytics',
      schema_type: 'multischema',
      ...KEYS,
    });
    golden(
      'warehouse_a-multischema-json.sql',
      loadStatements(p, window, objects(p, ['Signed up', '$mp_web_page_view'])),
    );
  });

  it('Snowflake: copy from the stage after deleting the window, in one transaction; people replace the table', () => {
    const p = pipeline({
      type: 'snowflake',
      s3_bucket: 'stage-bucket',
      s3_region: 'us-east-1',
      snowflake_share_with: 'ACME',
      snowflake_region: 'us-east-aws',
      data_format: 'parquet',
    });
    golden('snowflake-monoschema-parquet.sql', loadStatements(p, window, objects(p, ['Signed up'])));
    const people = pipeline({
      type: 'warehouse_b',
      s3_bucket: 'stage-bucket',
      s3_region: 'us-east-1',
      whb_share_with: 'ACME',
      whb_region: 'us-east-aws',
      whb_prefix: 'mp_',
      data_source: 'people',
    });
    golden(
      'warehouse_b-people-json.sql',
      loadStatements(people, window, [{ table: 'mp_people_data', key: peopleObjectKey(people) }]),
    );
  });

  it('raw bucket types have none', () => {
    expect(loadStatements(pipeline({ type: 's3-raw', s3_bucket: 'b-1', s3_region: 'us-east-1' }), window, [])).toBe('');
  });
});
