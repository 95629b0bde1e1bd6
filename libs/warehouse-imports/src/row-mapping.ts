import { createHash } from 'node:crypto';
import { ColumnMapping } from './import-definition';

export type SourceRow = Record<string, unknown>;

/** What every record of an import carries, so its data can be found (and deleted) later. */
export interface ImportStamp {
  importId: number;
  warehouseType: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** A property value as JSON can carry it: timestamps as ISO text, everything else as the driver read it. */
function propertyValue(value: unknown): unknown {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (Buffer.isBuffer(value)) return value.toString('base64');
  return value;
}

/** The event time the intake understands (seconds or milliseconds since the epoch); missing or unreadable → undefined, which the intake refuses. */
export function eventTime(value: unknown): number | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime();
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
    const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}

/** The JSON column's keys become top-level properties (text holding a JSON object is parsed). */
function jsonProperties(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      return isObject(parsed) ? parsed : {};
    } catch {
      return {};
    }
  }
  return isObject(value) ? value : {};
}

/**
 * The row's identity: a hash of the import and every column as read. The same row read again (a
 * retried page, a re-run) gets the same `$insert_id`, so the store's dedup key collapses it.
 */
export function rowInsertId(importId: number, row: SourceRow): string {
  const columns = Object.keys(row)
    .sort()
    .map((name) => [name, propertyValue(row[name])]);
  return createHash('sha256')
    .update(`${importId}\n${JSON.stringify(columns)}`)
    .digest('hex')
    .slice(0, 32);
}

/** Every column not mapped to something else, plus the JSON column flattened, plus the import's stamp. */
function otherProperties(
  row: SourceRow,
  mapped: (string | undefined)[],
  mapping: ColumnMapping,
  stamp: ImportStamp,
): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row)) if (!mapped.includes(name)) properties[name] = propertyValue(value);
  if (mapping.json_properties_column_name)
    Object.assign(properties, jsonProperties(row[mapping.json_properties_column_name]));
  properties.$warehouse_import_id = String(stamp.importId);
  properties.$warehouse_type = stamp.warehouseType;
  return properties;
}

const text = (value: unknown): string | undefined =>
  value === null || value === undefined || value === '' ? undefined : String(propertyValue(value));

/** One source row as an `/import` event record (the intake validates it like any other). */
export function rowToEvent(row: SourceRow, mapping: ColumnMapping, stamp: ImportStamp): Record<string, unknown> {
  const user = text(mapping.user_column_name && row[mapping.user_column_name]);
  const device = text(mapping.device_column_name && row[mapping.device_column_name]);
  const mapped = [
    mapping.time_column_name,
    mapping.event_column_name,
    mapping.user_column_name,
    mapping.device_column_name,
    mapping.json_properties_column_name,
  ];
  const properties: Record<string, unknown> = {
    ...otherProperties(row, mapped, mapping, stamp),
    time: eventTime(row[mapping.time_column_name!]),
    distinct_id: user ?? (device === undefined ? undefined : `$device:${device}`),
    $insert_id: rowInsertId(stamp.importId, row),
  };
  if (device !== undefined) properties.$device_id = device;
  if (properties.time === undefined) delete properties.time;
  const event = mapping.event_name ?? text(row[mapping.event_column_name!]);
  return { event, properties };
}

/** One source row as an `/engage` (`kind` people) or `/groups` `$set`. */
export function rowToProfileUpdate(
  row: SourceRow,
  mapping: ColumnMapping,
  stamp: ImportStamp,
  token: string,
): Record<string, unknown> {
  if (mapping.group_key) {
    const mapped = [mapping.group_id_column_name, mapping.json_properties_column_name];
    return {
      $token: token,
      $group_key: mapping.group_key,
      $group_id: text(row[mapping.group_id_column_name!]),
      $set: otherProperties(row, mapped, mapping, stamp),
    };
  }
  const mapped = [mapping.user_column_name, mapping.json_properties_column_name];
  return {
    $token: token,
    $distinct_id: text(row[mapping.user_column_name!]),
    $ignore_time: true,
    $set: otherProperties(row, mapped, mapping, stamp),
  };
}
