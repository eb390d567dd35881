import { ServiceError } from 'src/core/errors/service-error';
import { Money } from 'src/core/money/money';
import {
  checkTransferAmount,
  DEFAULT_TERMS,
  transferFee,
  TransferTerms,
} from 'src/modules/transfers/transfer-terms';

describe('transfer terms', () => {
  const terms: TransferTerms = {
    ...DEFAULT_TERMS,
    depositFeeFlat: new Money('0.30'),
    depositFeeBps: 29,
    withdrawalFeeFlat: new Money(2),
  };

  it('accepts amounts within the currency’s decimals and the bounds', () => {
    expect(checkTransferAmount('1', 'USD', DEFAULT_TERMS).toFixed()).toBe('1');
    expect(checkTransferAmount('1000000.00', 'USD', DEFAULT_TERMS).toFixed()).toBe('1000000');
    expect(checkTransferAmount('12.345', 'KWD', DEFAULT_TERMS).toFixed()).toBe('12.345');
  });

  it.each([
    ['1.001', 'USD', 'USD amounts carry at most 2 decimals.'],
    ['100.5', 'JPY', 'JPY amounts carry at most 0 decimals.'],
    ['0', 'USD', 'amount must be greater than zero.'],
    ['0.99', 'USD', 'amount must be between 1 and 1000000 USD per transfer.'],
    ['1000000.01', 'USD', 'amount must be between 1 and 1000000 USD per transfer.'],
  ])('refuses %s %s', (amount, currency, message) => {
    expect(() => checkTransferAmount(amount, currency, DEFAULT_TERMS)).toThrow(
      new ServiceError('SVC-400-001', message, 'amount'),
    );
  });

  it('charges flat plus basis points, rounded half-even to the currency', () => {
    // 0.30 + 100.00 × 0.29 % = 0.59
    expect(transferFee(terms, 'deposit', new Money('100.00'), 'USD')).toEqual({
      fee: new Money('0.59'),
      net: new Money('99.41'),
    });
    // 0.30 + 12.50 × 0.29 % = 0.33625 → 0.34
    expect(transferFee(terms, 'deposit', new Money('12.50'), 'USD').fee.toFixed(2)).toBe('0.34');
    expect(transferFee(terms, 'withdrawal', new Money('100'), 'USD').net.toFixed(2)).toBe('98.00');
    expect(transferFee(DEFAULT_TERMS, 'deposit', new Money('5'), 'JPY').fee.toFixed()).toBe('0');
  });

  it('refuses an amount the fee would swallow', () => {
    expect(() => transferFee(terms, 'withdrawal', new Money('2.00'), 'USD')).toThrow(
      new ServiceError(
        'SVC-400-001',
        'amount must be greater than the withdrawal fee of 2.00 USD.',
        'amount',
      ),
    );
  });
});
