import Decimal from 'decimal.js';
import fc from 'fast-check';
import { LedgerAudit } from 'src/modules/ledger/ledger-audit.service';
import { isRemote, useTestContext } from '../support/app';
import { freezeClock, MONDAY_OPEN } from '../trading/support/trading';
import { activeInvestor } from '../wallet/support/wallet';
import {
  balancesByCurrency,
  expectedConversion,
  firmAccount,
  journal,
  nairaInvestor,
  setFxRate,
} from '../fx/support/fx';
import { NO_LEDGER_DISCREPANCIES } from '../support/ledger-audit';

/**
 * Random conversions and journals among the firm account and two investors, each checked against an
 * independent model: a request fits exactly when the model has the cash (and the limits allow it); afterwards
 * every balance equals the model's, none is negative, and (in process) each currency's ledger sums to zero.
 */
describe('Property: conversions and journals', () => {
  const ctx = useTestContext();

  it('keeps every balance equal to the model and never negative', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
        const tenant = await ctx.createTenant();
        await freezeClock(ctx, tenant.test, MONDAY_OPEN);
        await setFxRate(ctx, tenant.test, 'USD', 'NGN', '1500');
        const firm = await firmAccount(ctx, tenant.test, '5000.00');
        const first = await nairaInvestor(ctx, tenant.test, '300000.00');
        const second = await activeInvestor(ctx, tenant.test);
        const accounts = [firm, first.investor.account_id, second.account_id];
        const model = accounts.map((_, i) => ({
          NGN: new Decimal(i === 1 ? '300000' : 0),
          USD: new Decimal(i === 0 ? '5000' : 0),
        }));
        const received = accounts.map(() => ({ NGN: new Decimal(0), USD: new Decimal(0) }));
        for (const step of ops) {
          const amount = new Decimal(step.cents).div(100);
          if (step.kind === 'convert') {
            const to = step.from === 'NGN' ? 'USD' : 'NGN';
            const res = await ctx
              .as(tenant.test)
              .post(`/v1/wallet/accounts/${accounts[step.who]}/conversions`, {
                from_currency: step.from,
                to_currency: to,
                amount: amount.toFixed(2),
              });
            const expected = expectedConversion({
              from: step.from,
              to,
              mid: MID[step.from],
              spreadBps: 100,
              amount: amount.toFixed(2),
            });
            const tooSmall = new Decimal(expected.to_amount).lte(0);
            const fits = !tooSmall && amount.lte(model[step.who][step.from]);
            expect([step, res.status]).toEqual([step, fits ? 201 : tooSmall ? 400 : 422]);
            if (fits) {
              model[step.who][step.from] = model[step.who][step.from].minus(amount);
              model[step.who][to] = model[step.who][to].plus(expected.to_amount);
            }
          } else {
            const res = await journal(ctx, tenant.test, {
              entry_type: 'JNLC',
              from_account_id: accounts[step.from],
              to_account_id: accounts[step.to],
              amount: amount.toFixed(2),
              currency: step.currency,
            });
            const limited =
              amount.gt(10_000) ||
              (step.to !== 0 && received[step.to][step.currency].plus(amount).gt(50_000));
            const fits = step.from !== step.to && !limited && amount.lte(model[step.from][step.currency]);
            expect([step, res.status]).toEqual([step, fits ? 201 : step.from === step.to ? 400 : 422]);
            if (fits) {
              model[step.from][step.currency] = model[step.from][step.currency].minus(amount);
              model[step.to][step.currency] = model[step.to][step.currency].plus(amount);
              received[step.to][step.currency] = received[step.to][step.currency].plus(amount);
            }
          }
        }
        for (const [i, accountId] of accounts.entries()) {
          const balances = await balancesByCurrency(ctx, tenant.test, accountId);
          for (const currency of ['NGN', 'USD'] as const) {
            const cash = balances[currency]?.cash ?? '0.00';
            expect([i, currency, cash]).toEqual([i, currency, model[i][currency].toFixed(2)]);
            expect(new Decimal(cash).gte(0)).toBe(true);
          }
        }
        if (!isRemote) {
          expect(await ctx.app!.get(LedgerAudit).check(tenant.tenantId)).toEqual(NO_LEDGER_DISCREPANCIES);
        }
      }),
      { numRuns: 8 },
    );
  }, 240_000);
});

type Op =
  | { kind: 'convert'; who: number; from: 'NGN' | 'USD'; cents: number }
  | { kind: 'journal'; from: number; to: number; currency: 'NGN' | 'USD'; cents: number };

const MID = { NGN: '0.00066667', USD: '1500' } as const;
const who = fc.integer({ min: 0, max: 2 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('convert' as const),
    who,
    from: fc.constantFrom('NGN' as const, 'USD' as const),
    cents: fc.integer({ min: 100, max: 30_000_000 }),
  }),
  fc.record({
    kind: fc.constant('journal' as const),
    from: who,
    to: who,
    currency: fc.constantFrom('NGN' as const, 'USD' as const),
    cents: fc.integer({ min: 1, max: 500_000 }),
  }),
);
