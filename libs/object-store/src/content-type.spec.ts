import { contentTypeFor, contentTypeOfKey } from './content-type';
import { ObjectStoreErrorCode } from './object-store-error';

describe('content types', () => {
  it('guesses from the extension, octet-stream otherwise', () => {
    expect(contentTypeOfKey('a/b.json')).toBe('application/json');
    expect(contentTypeOfKey('a/b.json.gz')).toBe('application/gzip');
    expect(contentTypeOfKey('a/part.PARQUET')).toBe('application/vnd.apache.parquet');
    expect(contentTypeOfKey('a/b')).toBe('application/octet-stream');
    expect(contentTypeOfKey('a/b.unknown')).toBe('application/octet-stream');
  });

  it('keeps a well-formed type and refuses one that could split a header', () => {
    expect(contentTypeFor('a', 'text/csv; charset=utf-8')).toBe('text/csv; charset=utf-8');
    expect(contentTypeFor('a', 'application/x-ndjson')).toBe('application/x-ndjson');
    for (const bad of [
      'text',
      'text/csv\r\nSet-Cookie: x=1',
      'text/csv; charset="a\nb"',
      '',
      'a/b; c',
      `text/${'x'.repeat(300)}`,
    ]) {
      expect(() => contentTypeFor('a', bad)).toThrow(
        expect.objectContaining({ code: ObjectStoreErrorCode.InvalidContentType }),
      );
    }
  });
});
