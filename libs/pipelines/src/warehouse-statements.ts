import { stagedUri } from './destination';
import { MASTER_EVENT_TABLE, PEOPLE_TABLE, Pipeline, Warehouse } from './pipeline-definition';
import { PipelineObject } from './pipeline-layout';
import { PipelineWindow } from './pipeline-windows';

/**
 * The statements a warehouse runs to take one window's staged files: load into a staging table,
 * then replace the window's rows in the table (so a re-sync converges, as the files do). People
 * replace the whole table. Written beside the manifest; docs/pipelines.md says what runs them.
 */
export function loadStatements(pipeline: Pipeline, window: PipelineWindow, objects: PipelineObject[]): string {
  const warehouse = pipeline.warehouse;
  if (!warehouse) return '';
  return objects
    .map((object) =>
      warehouse.kind === 'bigquery'
        ? bigQuery(pipeline, warehouse, window, object)
        : snowflake(pipeline, warehouse, window, object),
    )
    .join('\n');
}

const ts = (date: Date) => date.toISOString().replace('T', ' ').replace('.000Z', '');
const parquet = (pipeline: Pipeline) => pipeline.dataFormat === 'parquet';

/** The column a row's time is read from: a Parquet column, or the raw line's `properties.time` (seconds). */
function timeOf(pipeline: Pipeline, engine: 'bigquery' | 'snowflake', alias: string): string {
  if (parquet(pipeline)) return `${alias}.time`;
  return engine === 'bigquery'
    ? `TIMESTAMP_SECONDS(CAST(JSON_VALUE(${alias}.properties, '$.time') AS INT64))`
    : `TO_TIMESTAMP(${alias}.properties:time::NUMBER)`;
}

function bigQuery(
  pipeline: Pipeline,
  warehouse: Extract<Warehouse, { kind: 'bigquery' }>,
  window: PipelineWindow,
  object: PipelineObject,
): string {
  const dataset = warehouse.cloudProject ? `${warehouse.cloudProject}.${warehouse.dataset}` : warehouse.dataset;
  const table = `\`${dataset}.${object.table}\``;
  const format = parquet(pipeline) ? 'PARQUET' : 'JSON';
  const uri = stagedUri(pipeline.destination, 'gs', object.key);
  if (object.table === PEOPLE_TABLE) {
    return `-- ${object.table}: the whole table, replaced\nLOAD DATA OVERWRITE ${table} FROM FILES (format = '${format}', uris = ['${uri}']);\n`;
  }
  const staging = `\`${dataset}.${object.table}_staging\``;
  const schema = parquet(pipeline) ? '' : ' (event STRING, properties JSON)';
  const key = parquet(pipeline)
    ? `T.insert_id = S.insert_id AND T.distinct_id = S.distinct_id AND T.time = S.time${object.table === MASTER_EVENT_TABLE ? ' AND T.mp_event_name = S.mp_event_name' : ''}`
    : `JSON_VALUE(T.properties, '$."$insert_id"') = JSON_VALUE(S.properties, '$."$insert_id"') AND JSON_VALUE(T.properties, '$.distinct_id') = JSON_VALUE(S.properties, '$.distinct_id') AND T.event = S.event AND ${timeOf(pipeline, 'bigquery', 'T')} = ${timeOf(pipeline, 'bigquery', 'S')}`;
  return [
    `-- ${object.table}, window ${window.start.toISOString()} to ${window.end.toISOString()}`,
    `LOAD DATA OVERWRITE ${staging}${schema} FROM FILES (format = '${format}', uris = ['${uri}']);`,
    `CREATE TABLE IF NOT EXISTS ${table} LIKE ${staging};`,
    `MERGE ${table} T USING ${staging} S ON ${key}`,
    '  WHEN NOT MATCHED THEN INSERT ROW',
    `  WHEN NOT MATCHED BY SOURCE AND ${timeOf(pipeline, 'bigquery', 'T')} >= TIMESTAMP '${ts(window.start)}' AND ${timeOf(pipeline, 'bigquery', 'T')} < TIMESTAMP '${ts(window.end)}' THEN DELETE;`,
    '',
  ].join('\n');
}

function snowflake(
  pipeline: Pipeline,
  warehouse: Extract<Warehouse, { kind: 'snowflake' }>,
  window: PipelineWindow,
  object: PipelineObject,
): string {
  const table = `${warehouse.tablePrefix}${object.table}`.toUpperCase();
  const format = parquet(pipeline)
    ? '(TYPE = PARQUET) MATCH_BY_COLUMN_NAME = CASE_INSENSITIVE'
    : '(TYPE = JSON COMPRESSION = GZIP) MATCH_BY_COLUMN_NAME = CASE_INSENSITIVE';
  // The operator's stage points at the bucket and prefix (docs/pipelines.md); the path below is the object's key.
  const from = `@MIXPANEL_PIPELINE_STAGE/${object.key}`;
  if (object.table === PEOPLE_TABLE) {
    return [
      `-- ${object.table}: the whole table, replaced`,
      'BEGIN;',
      `TRUNCATE TABLE IF EXISTS ${table};`,
      `COPY INTO ${table} FROM ${from} FILE_FORMAT = ${format};`,
      'COMMIT;',
      '',
    ].join('\n');
  }
  const inWindow = `${timeOf(pipeline, 'snowflake', table)} >= '${ts(window.start)}'::TIMESTAMP_NTZ AND ${timeOf(pipeline, 'snowflake', table)} < '${ts(window.end)}'::TIMESTAMP_NTZ`;
  return [
    `-- ${object.table}, window ${window.start.toISOString()} to ${window.end.toISOString()}`,
    'BEGIN;',
    `DELETE FROM ${table} WHERE ${inWindow};`,
    `COPY INTO ${table} FROM ${from} FILE_FORMAT = ${format} FORCE = TRUE;`,
    'COMMIT;',
    '',
  ].join('\n');
}
