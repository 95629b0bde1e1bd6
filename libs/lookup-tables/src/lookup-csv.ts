/**
 * The CSV of a lookup table (PUT /lookup-tables/{id}), parsed and checked as the real API does:
 * RFC 4180 (quotes, `""` inside quotes, line breaks inside quotes, CRLF or LF), a header row of
 * unique names, the first column the unique, non-blank key. Each other cell is typed by the real
 * API's rules: numbers, `true`/`false` in any case, `["a","b"]` as a list of strings, an empty
 * cell as no value, anything else (RFC 3339 times included) as a string.
 */

export type LookupValue = string | number | boolean | readonly string[];

export interface LookupRow {
  readonly key: string;
  /** The row's other columns (header name → value); an empty cell has no entry. */
  readonly values: Readonly<Record<string, LookupValue>>;
}

export interface FailedRecord {
  /** The data row's index, 0 the first row under the header. */
  readonly index: number;
  readonly message: string;
}

export type ParsedLookupTable =
  | { readonly ok: true; readonly columns: readonly string[]; readonly rows: readonly LookupRow[] }
  | { readonly ok: false; readonly error: string; readonly failedRecords: readonly FailedRecord[] };

/** The real API lists at most this many failed rows. */
export const MAX_FAILED_RECORDS = 10;

export const ROWS_FAILED_VALIDATION = 'Some data points in the request failed validation.';

/** The records of an RFC 4180 text; `undefined` when a quoted field is never closed. */
export function csvRecords(text: string): string[][] | undefined {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const endRecord = () => {
    record.push(field);
    records.push(record);
    record = [];
    field = '';
  };
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += c;
      i += 1;
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' || c === '\n') {
      endRecord();
      if (c === '\r' && text[i + 1] === '\n') i += 1;
    } else field += c;
    i += 1;
  }
  if (quoted) return undefined;
  if (field !== '' || record.length > 0) endRecord();
  // Blank lines (a lone empty field) carry no row.
  return records.filter((r) => !(r.length === 1 && r[0] === ''));
}

const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/** A cell's value by the real API's type rules; undefined for an empty cell. */
export function lookupValue(cell: string): LookupValue | undefined {
  if (cell === '') return undefined;
  if (NUMBER.test(cell)) {
    const number = Number(cell);
    if (Number.isFinite(number)) return number;
  }
  const lower = cell.toLowerCase();
  if (lower === 'true' || lower === 'false') return lower === 'true';
  if (cell.startsWith('[') && cell.endsWith(']')) {
    try {
      const list: unknown = JSON.parse(cell);
      if (Array.isArray(list) && list.every((item) => typeof item === 'string')) return list as string[];
    } catch {
      // Not a list: a string.
    }
  }
  return cell;
}

function headerProblem(header: readonly string[]): string | undefined {
  if (header.length < 2) return 'a lookup table needs a key column and at least one more column';
  const blank = header.findIndex((name) => name.trim() === '');
  if (blank >= 0) return `invalid header: column ${blank + 1} has no name`;
  const seen = new Map<string, number>();
  for (const [i, name] of header.entries()) {
    const earlier = seen.get(name);
    if (earlier !== undefined)
      return `invalid header: columns ${earlier + 1} and ${i + 1} are both named ${JSON.stringify(name)}`;
    seen.set(name, i);
  }
  return undefined;
}

/** Parses and checks a whole table: all its rows, or the reasons (at most ten rows) it is refused. */
export function parseLookupCsv(text: string): ParsedLookupTable {
  const records = csvRecords(text.startsWith('\uFEFF') ? text.slice(1) : text);
  const refuse = (error: string, failedRecords: FailedRecord[] = []): ParsedLookupTable => ({
    ok: false,
    error,
    failedRecords,
  });
  if (records === undefined) return refuse('invalid CSV: a quoted field is not closed');
  if (records.length === 0) return refuse('the CSV is empty: a header row is required');
  const [header, ...data] = records;
  const problem = headerProblem(header);
  if (problem) return refuse(problem);
  const columns = header.slice(1);
  const failed: FailedRecord[] = [];
  const rows: LookupRow[] = [];
  const keys = new Map<string, number>();
  for (const [index, record] of data.entries()) {
    const fail = (message: string) => failed.push({ index, message });
    if (record.length !== header.length) {
      fail('invalid row: wrong number of fields');
      continue;
    }
    const key = record[0];
    if (key.trim() === '') {
      fail('primary key is required and cannot be blank');
      continue;
    }
    const earlier = keys.get(key);
    if (earlier !== undefined) {
      fail(`invalid row: row indexes ${earlier} and ${index} have the same primary key`);
      continue;
    }
    keys.set(key, index);
    const values: Record<string, LookupValue> = {};
    columns.forEach((column, i) => {
      const value = lookupValue(record[i + 1]);
      if (value !== undefined) values[column] = value;
    });
    rows.push({ key, values });
  }
  if (failed.length > 0) return refuse(ROWS_FAILED_VALIDATION, failed.slice(0, MAX_FAILED_RECORDS));
  return { ok: true, columns, rows };
}
