import { csvRecords, lookupValue, MAX_FAILED_RECORDS, parseLookupCsv, ROWS_FAILED_VALIDATION } from './lookup-csv';

describe('a lookup table CSV', () => {
  it('reads RFC 4180: quotes, doubled quotes, separators and line breaks inside quotes, CRLF and LF', () => {
    expect(csvRecords('a,b\r\n"x, y","say ""hi"""\n"multi\nline",\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['multi\nline', ''],
    ]);
    expect(csvRecords('a,b\nc,d')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(csvRecords('a,"b\n')).toBeUndefined();
  });

  it('types cells as the real API does: numbers, booleans in any case, string lists, empty as no value', () => {
    expect(lookupValue('1700000000')).toBe(1_700_000_000);
    expect(lookupValue('-2.5e3')).toBe(-2500);
    expect(lookupValue('True')).toBe(true);
    expect(lookupValue('FALSE')).toBe(false);
    expect(lookupValue('["US","CA"]')).toEqual(['US', 'CA']);
    expect(lookupValue('[1,2]')).toBe('[1,2]');
    expect(lookupValue('2015-10-18T22:00:00Z')).toBe('2015-10-18T22:00:00Z');
    expect(lookupValue('007x')).toBe('007x');
    expect(lookupValue('')).toBeUndefined();
  });

  it('keys rows by the first column and names values by the header, a BOM dropped', () => {
    const parsed = parseLookupCsv('\uFEFFsong_id,artist,countries,top\r\nc994bb,Drake,"[""US""]",\r\n');
    expect(parsed).toEqual({
      ok: true,
      columns: ['artist', 'countries', 'top'],
      rows: [{ key: 'c994bb', values: { artist: 'Drake', countries: ['US'] } }],
    });
  });

  it('skips blank lines, and a table of a header only has no rows', () => {
    expect(parseLookupCsv('id,v\n\nk,1\n\n')).toMatchObject({ ok: true, rows: [{ key: 'k', values: { v: 1 } }] });
    expect(parseLookupCsv('id,v\n')).toEqual({ ok: true, columns: ['v'], rows: [] });
  });

  it('refuses an empty body, a header of one column, a blank or duplicate header, an open quote', () => {
    expect(parseLookupCsv('')).toMatchObject({ ok: false, error: expect.stringMatching(/empty/) });
    expect(parseLookupCsv('\r\n')).toMatchObject({ ok: false, error: expect.stringMatching(/empty/) });
    expect(parseLookupCsv('id\nk\n')).toMatchObject({ ok: false, error: expect.stringMatching(/at least one more/) });
    expect(parseLookupCsv('id,,x\nk,1,2\n')).toMatchObject({ ok: false, error: expect.stringMatching(/column 2/) });
    expect(parseLookupCsv('id,genre,genre\nk,1,2\n')).toEqual({
      ok: false,
      error: 'invalid header: columns 2 and 3 are both named "genre"',
      failedRecords: [],
    });
    expect(parseLookupCsv('id,v\n"k,1\n')).toMatchObject({ ok: false, error: expect.stringMatching(/not closed/) });
  });

  it('refuses duplicate and blank keys and rows of the wrong width, listing at most ten rows', () => {
    expect(parseLookupCsv('id,v\na,1\na,2\n ,3\nb\nc,1,2\n')).toEqual({
      ok: false,
      error: ROWS_FAILED_VALIDATION,
      failedRecords: [
        { index: 1, message: 'invalid row: row indexes 0 and 1 have the same primary key' },
        { index: 2, message: 'primary key is required and cannot be blank' },
        { index: 3, message: 'invalid row: wrong number of fields' },
        { index: 4, message: 'invalid row: wrong number of fields' },
      ],
    });
    const many = ['id,v', ...Array.from({ length: 25 }, () => 'k')].join('\n');
    const refused = parseLookupCsv(many);
    expect(!refused.ok && refused.failedRecords).toHaveLength(MAX_FAILED_RECORDS);
  });
});
