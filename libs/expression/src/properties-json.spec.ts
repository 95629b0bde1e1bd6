import fc from 'fast-check';
import { toPropertiesJson } from './properties-json';
import { JsonValue } from './value';

describe('toPropertiesJson', () => {
  it('writes integers beyond 64 bits with an exponent, where JSON.stringify writes digits', () => {
    expect(JSON.stringify({ n: 121613589069471140000 })).toBe('{"n":121613589069471140000}');
    expect(toPropertiesJson({ n: 121613589069471140000, m: [-(2 ** 63)], k: 2 ** 53 })).toBe(
      '{"n":1.2161358906947114e+20,"m":[-9.223372036854776e+18],"k":9007199254740992}',
    );
  });

  it('is JSON.stringify for everything else, and reads back to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const json = toPropertiesJson(value as JsonValue);
        expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(value)));
        if (!/[0-9]{19}/.test(JSON.stringify(value))) expect(json).toBe(JSON.stringify(value));
      }),
    );
  });
});
