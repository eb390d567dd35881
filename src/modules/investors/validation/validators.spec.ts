import { sameValue } from 'src/modules/accounts/same-value';
import { newAccountNumber } from 'src/modules/accounts/account-settings';
import { taxIdLast4 } from 'src/modules/accounts/tax-id-last4';
import { maskTaxId, taxIdProblem } from 'src/modules/investors/validation/tax-ids';
import { mergeMetadata } from 'src/core/http/metadata';
import { ageOn, parseDateOnly } from 'src/modules/investors/validation/validators';

describe('tax ids', () => {
  it.each([
    ['USA_SSN', '123-45-6789'],
    ['USA_SSN', '123456789'],
    ['USA_ITIN', '912-70-1234'],
    ['CAN_SIN', '046 454 286'],
    ['GBR_NINO', 'ab 12 34 56 c'],
    ['NGA_TIN', '12345678-0001'],
    ['KEN_KRA_PIN', 'A123456789Z'],
    ['IND_PAN', 'ABCPE1234F'],
  ] as const)('%s accepts %s', (type, value) => {
    expect(taxIdProblem(type, value)).toBeUndefined();
  });

  it.each([
    ['USA_SSN', '000-12-3456'],
    ['USA_SSN', '666-12-3456'],
    ['USA_SSN', '923-45-6789'],
    ['USA_SSN', '123-00-6789'],
    ['USA_SSN', '123-45-0000'],
    ['USA_SSN', '12-345-6789'],
    ['USA_ITIN', '123-70-1234'],
    ['CAN_SIN', '046 454 287'],
    ['GBR_NINO', 'QQ123456C'],
    ['KEN_KRA_PIN', 'B123456789Z'],
  ] as const)('%s refuses %s, giving an example', (type, value) => {
    expect(taxIdProblem(type, value)).toMatch(/^is not a valid .+ \(for example .+\)$/);
  });

  it('shows only the last four characters', () => {
    expect(maskTaxId(taxIdLast4('123-45-6789'))).toBe('*****6789');
    expect(maskTaxId(taxIdLast4('AB 12 34 56 C'))).toBe('*****456C');
    expect(maskTaxId(null)).toBeNull();
  });
});

describe('dates of birth', () => {
  it('parses real calendar dates only', () => {
    expect(parseDateOnly('2000-02-29')?.toISOString()).toBe('2000-02-29T00:00:00.000Z');
    expect(parseDateOnly('2001-02-29')).toBeUndefined();
    expect(parseDateOnly('2001-2-3')).toBeUndefined();
  });

  it('counts whole years, turning a year older on the birthday', () => {
    const birth = parseDateOnly('2007-06-15')!;
    expect(ageOn(birth, new Date('2025-06-14T23:59:59Z'))).toBe(17);
    expect(ageOn(birth, new Date('2025-06-15T00:00:00Z'))).toBe(18);
  });
});

describe('metadata updates', () => {
  it('sets keys and removes those set to an empty string', () => {
    expect(mergeMetadata({ a: '1', b: '2' }, { b: '', c: '3' })).toEqual({ a: '1', c: '3' });
    expect(mergeMetadata({ a: '1' }, undefined)).toEqual({ a: '1' });
  });
});

describe('account numbers', () => {
  it('are ten digits whose last is the Luhn check digit', () => {
    for (let i = 0; i < 200; i++) {
      const number = newAccountNumber();
      expect(number).toMatch(/^[1-9]\d{9}$/);
      const sum = [...number]
        .reverse()
        .map(Number)
        .reduce((acc, d, idx) => acc + (idx % 2 === 1 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d), 0);
      expect(sum % 10).toBe(0);
    }
  });
});

describe('sameValue', () => {
  it('compares JSON values whatever their key order', () => {
    expect(
      sameValue({ a: 1, b: { c: [1, { d: 2, e: null }] } }, { b: { c: [1, { e: null, d: 2 }] }, a: 1 }),
    ).toBe(true);
    expect(sameValue({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameValue(['a', 'b'], ['b', 'a'])).toBe(false);
  });
});
