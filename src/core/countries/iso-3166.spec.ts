import isISO31661Alpha2 from 'validator/lib/isISO31661Alpha2';
import isISO31661Alpha3 from 'validator/lib/isISO31661Alpha3';
import { ALPHA2_TO_ALPHA3, isAlpha2, toAlpha2, toAlpha3 } from 'src/core/countries/iso-3166';

describe('ISO 3166-1 alpha-2 / alpha-3 table', () => {
  const entries = Object.entries(ALPHA2_TO_ALPHA3);

  it('has every one of the 249 assigned codes, each pair one to one', () => {
    expect(entries).toHaveLength(249);
    expect(new Set(entries.map(([, a3]) => a3)).size).toBe(249);
  });

  it('agrees with the code lists class-validator checks input against', () => {
    for (const [a2, a3] of entries) {
      expect([a2, isISO31661Alpha2(a2)]).toEqual([a2, true]);
      expect([a3, isISO31661Alpha3(a3)]).toEqual([a3, true]);
    }
  });

  it('converts both ways', () => {
    expect(toAlpha3('US')).toBe('USA');
    expect(toAlpha3('NG')).toBe('NGA');
    expect(toAlpha3('GB')).toBe('GBR');
    expect(toAlpha2('KEN')).toBe('KE');
    expect(toAlpha2('XXX')).toBeUndefined();
    expect(isAlpha2('us')).toBe(false);
    expect(() => toAlpha3('ZZ')).toThrow('ZZ');
  });
});
