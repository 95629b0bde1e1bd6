import { cleanEventName, DataFormat, MASTER_EVENT_TABLE, PEOPLE_TABLE, Pipeline } from './pipeline-definition';
import { PipelineWindow, windowPath } from './pipeline-windows';

/**
 * Where a pipeline's objects go, under the destination prefix (see docs/pipelines.md):
 * `<project>/<table>/YYYY/MM/DD[/HH]/data.<ext>` per window and table; people in
 * `<project>/mp_people_data/data.<ext>`; one manifest per window, written last, in
 * `<project>/mp_manifest/…`. Names depend only on the pipeline and the window: a re-run overwrites.
 */
export const extensionOf = (format: DataFormat) => (format === 'parquet' ? 'parquet' : 'json.gz');

export interface PipelineObject {
  /** Table the object belongs to (`mp_master_event`, a cleaned event name, `mp_people_data`). */
  table: string;
  key: string;
}

export function eventsObjectKey(pipeline: Pipeline, table: string, window: PipelineWindow): string {
  return `${pipeline.projectId}/${table}/${windowPath(pipeline.frequency, window)}/data.${extensionOf(pipeline.dataFormat)}`;
}

export const peopleObjectKey = (pipeline: Pipeline) =>
  `${pipeline.projectId}/${PEOPLE_TABLE}/data.${extensionOf(pipeline.dataFormat)}`;

export function manifestKey(pipeline: Pipeline, window: PipelineWindow): string {
  if (pipeline.dataSource === 'people') return `${pipeline.projectId}/mp_manifest/${PEOPLE_TABLE}.json`;
  return `${pipeline.projectId}/mp_manifest/${windowPath(pipeline.frequency, window)}.json`;
}

export const loadStatementsKey = (pipeline: Pipeline, window: PipelineWindow) =>
  manifestKey(pipeline, window).replace(/\.json$/, '.load.sql');

/** Groups a window's event names by table: monoschema puts all in one; multischema one per cleaned name (names that clean alike share it). */
export function tablesOf(pipeline: Pipeline, events: string[]): Map<string, string[]> {
  const tables = new Map<string, string[]>();
  for (const event of events) {
    const table = pipeline.schemaType === 'monoschema' ? MASTER_EVENT_TABLE : cleanEventName(event);
    tables.set(table, [...(tables.get(table) ?? []), event]);
  }
  return tables;
}
