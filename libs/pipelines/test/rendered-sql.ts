import { projectScope } from '@analytics/tenancy';
import type { RenderedQuery } from '../../../test/rendered-sql/rendered-query';
import { MASTER_EVENT_TABLE } from '../src/pipeline-definition';
import {
  peopleCountSql,
  windowEventNamesSql,
  windowFingerprintsSql,
  writeEventsSql,
  writePeopleSql,
  writeTextSql,
} from '../src/pipeline-export-sql';

/** A pipeline's ClickHouse statements for fixed inputs, committed as libs/pipelines/sql/ (npm run sql:render). */
const scope = projectScope(1);
const hour = { start: new Date('2024-03-04T10:00:00Z'), end: new Date('2024-03-04T11:00:00Z') };
const aws = {
  destination: {
    bucket: 'exports',
    region: 'eu-west-1',
    prefix: 'analytics/',
    forcePathStyle: false,
    accessKeyId: 'AKIAEXAMPLE',
  },
  secretAccessKey: 'secret',
};
const selfHosted = {
  destination: {
    bucket: 'exports',
    region: 'us-east-1',
    prefix: '',
    endpoint: 'http://127.0.0.1:9000',
    forcePathStyle: true,
  },
};
const key = '1/mp_master_event/2024/03/04/10/data.parquet';

export const PIPELINE_EXPORT_SQL: RenderedQuery[] = [
  {
    builder: 'PipelineExportRepository.eventNames (windowEventNamesSql)',
    inputs: 'project 1; the hour 2024-03-04 10:00 UTC',
    query: windowEventNamesSql(scope, hour),
  },
  {
    builder: 'PipelineExportRepository.fingerprints (windowFingerprintsSql)',
    inputs: 'project 1; hourly windows of 2024-03-04',
    query: windowFingerprintsSql(scope, 3_600_000, new Date('2024-03-04T00:00:00Z'), new Date('2024-03-05T00:00:00Z')),
  },
  {
    builder: 'PipelineExportRepository.writeEvents (writeEventsSql)',
    inputs: `project 1; the hour; Parquet, ${MASTER_EVENT_TABLE}, every event; AWS with a key pair`,
    query: writeEventsSql(scope, 'parquet', aws, key, MASTER_EVENT_TABLE, undefined, hour),
  },
  {
    builder: 'PipelineExportRepository.writeEvents (writeEventsSql)',
    inputs:
      'project 1; the hour; gzip json lines, table opened, events Opened; a self-hosted store, path style, no key pair',
    query: writeEventsSql(scope, 'json', selfHosted, '1/opened/2024/03/04/10/data.json.gz', 'opened', ['Opened'], hour),
  },
  {
    builder: 'PipelineExportRepository.writePeople (writePeopleSql)',
    inputs: 'project 1; Parquet; AWS with a key pair',
    query: writePeopleSql(scope, 'parquet', aws, '1/mp_people_data/data.parquet'),
  },
  {
    builder: 'PipelineExportRepository.writePeople (peopleCountSql)',
    inputs: 'project 1',
    query: peopleCountSql(scope),
  },
  {
    builder: 'PipelineExportRepository.writeText (writeTextSql)',
    inputs: 'a manifest; AWS with a key pair',
    query: writeTextSql(aws, '1/manifest.json', '{"objects":[]}'),
  },
];
