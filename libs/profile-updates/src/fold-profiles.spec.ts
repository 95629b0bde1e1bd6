import { foldProfileStates } from './fold-profiles';

describe('folding profiles into the canonical one', () => {
  const device = {
    properties: { plan: 'free', utm_source: 'ad', $created: '2024-01-01T00:00:00' },
    stamps: { plan: 1, utm_source: 1 },
  };
  const user = {
    properties: { plan: 'pro', name: 'Ada', $created: '2024-02-01T00:00:00' },
    stamps: { plan: 5, name: 5 },
  };

  it("keeps the canonical profile's values and copies what it lacks, with the write times", () => {
    expect(foldProfileStates(user, [device])).toEqual({
      properties: { plan: 'pro', name: 'Ada', utm_source: 'ad', $created: '2024-02-01T00:00:00' },
      stamps: { plan: 5, name: 5, utm_source: 1 },
    });
  });

  it('takes a property several folded profiles hold from the first given (the oldest)', () => {
    const phone = { properties: { utm_source: 'mail', os: 'ios' }, stamps: {} };
    expect(foldProfileStates(undefined, [device, phone]).properties).toEqual({
      plan: 'free',
      utm_source: 'ad',
      os: 'ios',
      $created: '2024-01-01T00:00:00',
    });
  });

  it('changes nothing when folded again, and leaves its inputs alone', () => {
    const once = foldProfileStates(user, [device]);
    expect(foldProfileStates(once, [device])).toEqual(once);
    expect(user.properties).not.toHaveProperty('utm_source');
  });

  it('keeps a property named __proto__ as a property', () => {
    const odd = { properties: JSON.parse('{"__proto__": {"x": 1}}'), stamps: {} };
    const folded = foldProfileStates(user, [odd]);
    expect(Object.hasOwn(folded.properties, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(folded.properties)).toBe(Object.prototype);
  });
});
