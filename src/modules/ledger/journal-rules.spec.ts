import { Money } from 'src/core/money/money';
import { checkAmount, resolveEntries, totalsByAccount } from 'src/modules/ledger/journal-rules';
import { LedgerRuleError } from 'src/modules/ledger/ledger-errors';

describe('journal rules', () => {
  const scope = { tenantId: 'ten_1', livemode: false };
  const cash = { kind: 'investor_cash' as const, ownerId: 'acc-1', currency: 'USD' };
  const bank = { kind: 'bank_clearing' as const, currency: 'USD' };
  const fees = { kind: 'fees_revenue' as const, currency: 'USD' };

  it('accepts a journal whose debits equal its credits in each currency', () => {
    const entries = resolveEntries(scope, [
      { account: bank, direction: 'debit', amount: '100.00' },
      { account: cash, direction: 'credit', amount: '99.50' },
      { account: fees, direction: 'credit', amount: '0.50' },
    ]);
    expect(entries.map((e) => e.amount.toFixed(2))).toEqual(['100.00', '99.50', '0.50']);
  });

  it.each([
    [[{ account: bank, direction: 'debit', amount: '1.00' }], 'a journal needs at least two entries'],
    [
      [
        { account: bank, direction: 'debit', amount: '1.00' },
        { account: cash, direction: 'credit', amount: '1.01' },
      ],
      'debits and credits differ by -0.01 USD',
    ],
    [
      [
        { account: bank, direction: 'debit', amount: '0' },
        { account: cash, direction: 'credit', amount: '0' },
      ],
      'amount 0 must be positive',
    ],
    [
      [
        { account: bank, direction: 'debit', amount: '-5' },
        { account: cash, direction: 'credit', amount: '-5' },
      ],
      'amount -5 must be positive',
    ],
  ] as const)('refuses %j', (entries, message) => {
    expect(() => resolveEntries(scope, entries as never)).toThrow(new LedgerRuleError(message));
  });

  it('limits cash amounts to the currency’s minor units and other kinds to 8 decimals', () => {
    expect(() => checkAmount({ ...cash, currency: 'JPY' }, '100.5')).toThrow(/at most 0 decimals/);
    expect(checkAmount({ ...cash, currency: 'KWD' }, '1.125').toFixed()).toBe('1.125');
    expect(checkAmount({ kind: 'interest_payable', currency: 'USD' }, '0.00123456').toFixed()).toBe(
      '0.00123456',
    );
    expect(() => checkAmount({ kind: 'interest_payable', currency: 'USD' }, '0.000000001')).toThrow(
      /at most 8 decimals/,
    );
    expect(() => checkAmount({ ...cash, currency: 'XYZ' }, '1')).toThrow(/unsupported currency XYZ/);
    expect(() => checkAmount(cash, 5 as never)).toThrow(/never numbers/);
  });

  it('sums each account’s debits and credits, in account id order', () => {
    const totals = totalsByAccount(
      resolveEntries(scope, [
        { account: cash, direction: 'debit', amount: '10' },
        { account: bank, direction: 'credit', amount: '7' },
        { account: fees, direction: 'credit', amount: '3' },
        { account: cash, direction: 'credit', amount: '2' },
        { account: bank, direction: 'debit', amount: '2' },
      ]),
    );
    expect(totals.map((t) => t.accountId)).toEqual([...totals.map((t) => t.accountId)].sort());
    const ofCash = totals.find((t) => t.account.kind === 'investor_cash')!;
    expect([ofCash.debits.toFixed(), ofCash.credits.toFixed()]).toEqual(['10', '2']);
    expect(new Money(totals.reduce((s, t) => s.plus(t.debits).minus(t.credits), new Money(0))).isZero()).toBe(
      true,
    );
  });
});
