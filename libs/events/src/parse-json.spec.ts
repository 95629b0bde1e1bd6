import { parseJson } from './parse-json';

describe('parseJson', () => {
  it('keeps integers beyond 2^53 as sent, at any depth, and parses everything else as JSON.parse does', () => {
    const deep = (inner: string, levels: number) => '['.repeat(levels) + inner + ']'.repeat(levels);
    for (const levels of [0, 3, 40]) {
      const text = deep(
        '{"a":9007199254740993,"b":-12345678901234567890,"c":1e300,"d":9007199254740991,"e":0.5}',
        levels,
      );
      expect(JSON.stringify(parseJson(text))).toBe(text.replace('1e300', '1e+300'));
    }
    const plain = '{"a":1,"b":[2,"x",{"c":null}],"d":12345678901234567.5,"e":"12345678901234567890"}';
    expect(parseJson(plain)).toEqual(JSON.parse(plain));
  });
});
