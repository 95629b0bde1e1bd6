import { booleanParameter } from './boolean-parameter';

describe('booleanParameter', () => {
  it('reads true/1 and false/0 whatever the fallback', () => {
    for (const fallback of [true, false]) {
      expect(booleanParameter('true', fallback)).toBe(true);
      expect(booleanParameter('1', fallback)).toBe(true);
      expect(booleanParameter('false', fallback)).toBe(false);
      expect(booleanParameter('0', fallback)).toBe(false);
    }
  });

  it('gives the fallback when the parameter is absent or empty', () => {
    expect(booleanParameter(undefined, true)).toBe(true);
    expect(booleanParameter(null, false)).toBe(false);
    expect(booleanParameter('', true)).toBe(true);
  });

  it('rejects other spellings so the caller can answer 400', () => {
    for (const text of ['yes', 'TRUE', ' 1', '2', 'on']) expect(booleanParameter(text, false)).toBeUndefined();
  });
});
