import { ObjectStoreError, ObjectStoreErrorCode } from './object-store-error';

const TOKEN = '[A-Za-z0-9!#$&^_.+-]+';
/** `type/subtype` with optional parameters, printable ASCII only: it becomes a response header as is. */
const CONTENT_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(\\s*;\\s*${TOKEN}=(${TOKEN}|"[\\x20\\x21\\x23-\\x7e]*"))*$`);

const BY_EXTENSION: Record<string, string> = {
  json: 'application/json',
  ndjson: 'application/x-ndjson',
  jsonl: 'application/x-ndjson',
  csv: 'text/csv',
  txt: 'text/plain; charset=utf-8',
  gz: 'application/gzip',
  zip: 'application/zip',
  parquet: 'application/vnd.apache.parquet',
};

/** What a key's extension suggests, for objects stored without a type (files ClickHouse wrote itself). */
export function contentTypeOfKey(key: string): string {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return (dot > 0 && BY_EXTENSION[name.slice(dot + 1).toLowerCase()]) || 'application/octet-stream';
}

/** The content type to store: the one given (checked, at most 255 characters) or the key's. */
export function contentTypeFor(key: string, given: string | undefined): string {
  if (given === undefined) return contentTypeOfKey(key);
  if (given.length > 255 || !CONTENT_TYPE.test(given)) {
    throw new ObjectStoreError(
      ObjectStoreErrorCode.InvalidContentType,
      `invalid content type ${JSON.stringify(given.slice(0, 100))}`,
    );
  }
  return given;
}
