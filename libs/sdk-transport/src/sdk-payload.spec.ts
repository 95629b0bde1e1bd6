import { decodeDataField, decodeUtf8RepairingSurrogates, readSdkRequest } from './sdk-payload';

describe('the SDK transport payload', () => {
  it('repairs characters the browser SDK encodes as surrogate halves (CESU-8)', () => {
    const cesu = Buffer.from('"rocket ', 'utf8');
    const halves = Buffer.from([0xed, 0xa0, 0xbd, 0xed, 0xba, 0x80]); // 🚀 as two 3-byte halves
    expect(decodeUtf8RepairingSurrogates(Buffer.concat([cesu, halves, Buffer.from('"')]))).toBe('"rocket 🚀"');
    expect(decodeUtf8RepairingSurrogates(Buffer.from('plain ünïcode 😀'))).toBe('plain ünïcode 😀');
  });

  it('decodes base64 (with + read as spaces) and JSON, objects and arrays', () => {
    const events = [{ event: 'e', properties: { s: '>>>??>' } }];
    const base64 = Buffer.from(JSON.stringify(events)).toString('base64');
    expect(base64).toContain('+');
    expect(decodeDataField(base64.replace(/\+/g, ' '))).toEqual(events);
    expect(decodeDataField(JSON.stringify(events[0]))).toEqual(events);
    expect(() => decodeDataField('%%%')).toThrow('data must be JSON or base64-encoded JSON');
  });

  it('finds data in the query, a form body of any content type, or a JSON body', () => {
    const data = JSON.stringify({ event: 'x' });
    expect(readSdkRequest(new URLSearchParams({ data }), Buffer.alloc(0), undefined).records).toEqual([{ event: 'x' }]);
    const form = readSdkRequest(
      new URLSearchParams('verbose=0'),
      Buffer.from(`data=${encodeURIComponent(data)}&verbose=1`),
      'text/plain',
    );
    expect(form.records).toEqual([{ event: 'x' }]);
    expect(form.fields.get('verbose')).toBe('1');
    expect(readSdkRequest(new URLSearchParams(), Buffer.from(`[${data}]`), 'application/json').records).toEqual([
      { event: 'x' },
    ]);
    expect(readSdkRequest(new URLSearchParams(), Buffer.alloc(0), undefined).records).toBeUndefined();
  });
});
