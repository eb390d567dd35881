import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { DecimalField, moneyAmountMessage } from 'src/core/money/decimal-field';

describe('DecimalField', () => {
  it('accepts plain decimal text up to 8 decimals and 32 characters', () => {
    for (const amount of ['0', '250', '250.00', '0.12345678', '999999999999999.12345678']) {
      expect(errorsOf({ amount })).toEqual({});
    }
  });

  it('refuses signs, exponents, leading zeros, numbers and long fractions, naming the field', () => {
    for (const amount of ['-1', '+1', '1e5', '01', '1.', '.5', '1.123456789', '1,5', ' 1', 250]) {
      expect(errorsOf({ amount })).toHaveProperty('amount');
    }
    expect(errorsOf({ amount: '1e5' }).amount).toContain(
      'amount must be a decimal string such as "250.00" (no sign, exponent or number; at most the currency\u2019s decimals)',
    );
  });

  it('makes the field optional only when asked, with the caller’s message', () => {
    expect(errorsOf({})).toHaveProperty('amount');
    expect(errorsOf({ amount: '1' })).toEqual({});
    expect(errorsOf({ amount: '1', price: '-2' }).price).toContain('price is not a decimal');
  });
});

class Body {
  @DecimalField({
    required: true,
    description: 'An amount.',
    example: '250.00',
    message: moneyAmountMessage('250.00'),
  })
  amount: string;

  @DecimalField({
    required: false,
    description: 'A price.',
    example: '1.5',
    message: '$property is not a decimal',
  })
  price?: string;
}

function errorsOf(body: Record<string, unknown>): Record<string, string[]> {
  const errors = validateSync(plainToInstance(Body, body));
  return Object.fromEntries(errors.map((e) => [e.property, Object.values(e.constraints ?? {})]));
}
