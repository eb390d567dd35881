import Decimal from 'decimal.js';
import fc from 'fast-check';
import { closeCliContext } from 'src/cli/cli-context';
import { LedgerAudit } from 'src/modules/ledger/ledger-audit.service';
import { isRemote, useTestContext } from '../support/app';
import { runCli } from '../support/cli';
import { sandboxTerms } from '../support/sandbox-terms';

import { advanceClock, freezeClock, BOND_MONDAY_OPEN, setPrice, trader } from './support/trading';
import { NO_LEDGER_DISCREPANCIES } from '../support/ledger-audit';

const cents = (value: Decimal.Value) => new Decimal(value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);

describe('Positions, bonds and commissions', () => {
  const ctx = useTestContext();
  afterAll(() => closeCliContext());

  it('a treasury buy by face value costs face × price / 100 + accrued interest to T+1', async () => {
    const tenant = await ctx.createTenant({ fixedIncome: true });
    await freezeClock(ctx, tenant.test, BOND_MONDAY_OPEN);
    const t = await trader(ctx, tenant.test, '20000.00', { enabled_assets: ['us_equity', 'bonds'] });
    const quote = await setPrice(ctx, tenant.test, '91282CQS3', '99.5');
    const res = await t.place({
      symbol: '91282CQS3',
      side: 'buy',
      type: 'market',
      time_in_force: 'day',
      quantity: '10000',
    });
    expect(res.body).toMatchObject({ status: 'filled', quantity: '10000', settlement_date: '2027-03-02' });
    // T 4 05/31/28: 4 % semi-annual, ACT/ACT; coupon period 2026-11-30 → 2027-05-31 (182 days), 92 days accrued.
    const accrued = new Decimal(10000).times(0.04).div(2).times(92).div(182);
    const expected = cents(new Decimal(10000).times(quote.ask).div(100).plus(accrued));
    const [execution] = await t.executions(res.body.id);
    expect(execution).toMatchObject({ price: quote.ask, net_amount: expected.toFixed() });
    expect(new Decimal(execution.accrued_interest).minus(accrued).abs().lte('0.01')).toBe(true);
    expect((await t.balance()).cash).toBe(new Decimal(20000).minus(expected).toFixed(2));
    expect(await t.positions()).toEqual([
      expect.objectContaining({
        symbol: 'T 4 05/31/28',
        quantity: '10000',
        // Cost basis is the cash paid for the clean price (cents); per unit in percent of par.
        average_cost_basis: cents(new Decimal(10000).times(quote.ask).div(100)).div(100).toFixed(),
        total_cost_basis: cents(new Decimal(10000).times(quote.ask).div(100)).toFixed(2),
        current_price: quote.last,
      }),
    ]);
    const corporate = await t.place({
      symbol: '037833ET3',
      side: 'buy',
      type: 'limit',
      time_in_force: 'day',
      quantity: '1000',
      limit_price: '1',
    });
    expect(corporate.body).toMatchObject({ status: 'accepted', settlement_date: '2027-03-03' });
  });

  it('commissions per tenant set by support (CLI, or the sandbox admin API) are charged on the order and in cash', async () => {
    /** Support's command: the CLI in process; against a sandbox, its admin API (same answer). */
    const commission = (tenantId: string, change: { type?: string; amount?: string } = {}) =>
      isRemote
        ? sandboxTerms(ctx, tenantId, 'commission', { commission_type: change.type, amount: change.amount })
        : runCli(
            'trading:commission',
            tenantId,
            ...(change.type ? ['--type', change.type, '--amount', change.amount!] : []),
          );
    /** A tenant whose terms are set before its first order (the API reads them within 5 seconds). */
    async function tenantWith(type: string, amount: string) {
      const tenant = await ctx.createTenant();
      expect(await commission(tenant.tenantId)).toEqual({
        tenant_id: tenant.tenantId,
        commission_type: 'notional',
        amount: '0',
      });
      expect(await commission(tenant.tenantId, { type, amount })).toEqual({
        tenant_id: tenant.tenantId,
        commission_type: type,
        amount,
      });
      await freezeClock(ctx, tenant.test, BOND_MONDAY_OPEN);
      const t = await trader(ctx, tenant.test, '10000.00');
      return { tenant, t, quote: await setPrice(ctx, tenant.test, 'AAPL', '100.00') };
    }
    const market = (side: string, quantity: string) => ({
      symbol: 'AAPL',
      side,
      type: 'market',
      time_in_force: 'day',
      quantity,
    });

    const bps = await tenantWith('bps', '25');
    const gross = cents(new Decimal(10).times(bps.quote.ask));
    const fee = cents(gross.times(25).div(10000));
    expect((await bps.t.place(market('buy', '10'))).body).toMatchObject({
      status: 'filled',
      commission: fee.toFixed(),
      commission_type: 'bps',
    });
    expect((await bps.t.balance()).cash).toBe(new Decimal(10000).minus(gross).minus(fee).toFixed(2));

    const qty = await tenantWith('qty', '0.05');
    expect((await qty.t.place(market('buy', '4'))).body).toMatchObject({
      commission: '0.2',
      commission_type: 'qty',
    });
    expect((await qty.t.balance()).cash).toBe(
      new Decimal(10000)
        .minus(cents(new Decimal(4).times(qty.quote.ask)))
        .minus('0.2')
        .toFixed(2),
    );

    const flat = await tenantWith('notional', '1.5');
    await flat.t.place(market('buy', '6'));
    expect((await flat.t.place(market('sell', '6'))).body).toMatchObject({
      commission: '1.5',
      commission_type: 'notional',
    });
    const roundTrip = cents(new Decimal(6).times(flat.quote.ask)).minus(
      cents(new Decimal(6).times(flat.quote.bid)),
    );
    expect((await flat.t.balance()).cash).toBe(new Decimal(10000).minus(roundTrip).minus(3).toFixed(2));
    // The ledger audit reads the deployment's tables: in process only.
    for (const { tenant } of isRemote ? [] : [bps, qty, flat]) {
      expect(await ctx.app!.get(LedgerAudit).check(tenant.tenantId)).toEqual(NO_LEDGER_DISCREPANCIES);
    }
  });

  it('positions are valued at the current price; last_equity adds them at the last close', async () => {
    const tenant = await ctx.createTenant();
    await freezeClock(ctx, tenant.test, BOND_MONDAY_OPEN);
    const t = await trader(ctx, tenant.test, '5000.00');
    const first = await setPrice(ctx, tenant.test, 'GOOGL', '100.00');
    await t.place({ symbol: 'GOOGL', side: 'buy', type: 'market', time_in_force: 'day', quantity: '10' });
    const second = await setPrice(ctx, tenant.test, 'GOOGL', '120.00');
    await t.place({ symbol: 'GOOGL', side: 'buy', type: 'market', time_in_force: 'day', quantity: '30' });
    const cost = cents(new Decimal(10).times(first.ask)).plus(cents(new Decimal(30).times(second.ask)));
    await setPrice(ctx, tenant.test, 'GOOGL', '130.00');
    const position = (
      await ctx.as(tenant.test).get(`/v1/trading/accounts/${t.investor.account_id}/positions/GOOGL`)
    ).body;
    expect(position).toMatchObject({
      symbol: 'GOOGL',
      quantity: '40',
      total_cost_basis: cost.toFixed(2),
      average_cost_basis: cost.div(40).toDecimalPlaces(8).toFixed(),
      current_price: '130',
      market_value: '5200.00',
      unrealized_pl: new Decimal(5200).minus(cost).toFixed(2),
    });
    await advanceClock(ctx, tenant.test, 8 * 3600); // after the close: the last close is the last price
    const account = (await ctx.as(tenant.test).get(`/v1/accounts/${t.investor.account_id}`)).body;
    expect(account.last_equity).toBe(new Decimal(5000).minus(cost).plus(5200).toFixed(2));
    const missing = await ctx
      .as(tenant.test)
      .get(`/v1/trading/accounts/${t.investor.account_id}/positions/AAPL`);
    expect(missing.status).toBe(404);
  });

  it('after random buys and sells, cash and positions equal an independent computation (fast-check)', async () => {
    const tenant = await ctx.createTenant();
    await freezeClock(ctx, tenant.test, BOND_MONDAY_OPEN);
    const step = fc.record({
      buy: fc.boolean(),
      quantity: fc.integer({ min: 1, max: 40 }),
      cents: fc.integer({ min: 500, max: 20_000 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        const t = await trader(ctx, tenant.test, '100000.00');
        let cash = new Decimal(100000);
        let held = new Decimal(0);
        let basis = new Decimal(0);
        for (const s of steps) {
          const quote = await setPrice(ctx, tenant.test, 'ORCL', new Decimal(s.cents).div(100).toFixed(2));
          const quantity = s.buy ? new Decimal(s.quantity) : Decimal.min(held, s.quantity);
          if (quantity.isZero()) {
            continue;
          }
          const res = await t.place({
            symbol: 'ORCL',
            side: s.buy ? 'buy' : 'sell',
            type: 'market',
            time_in_force: 'day',
            quantity: quantity.toFixed(),
          });
          expect(res.body.status).toBe('filled');
          if (s.buy) {
            const cost = cents(quantity.times(quote.ask));
            cash = cash.minus(cost);
            basis = basis.plus(cost);
            held = held.plus(quantity);
          } else {
            cash = cash.plus(cents(quantity.times(quote.bid)));
            basis = quantity.eq(held)
              ? new Decimal(0)
              : basis.minus(basis.times(quantity).div(held)).toDecimalPlaces(8);
            held = held.minus(quantity);
          }
        }
        expect((await t.balance()).cash).toBe(cash.toFixed(2));
        const positions = await t.positions();
        expect(positions).toEqual(
          held.isZero()
            ? []
            : [
                // Shown in minor units rounded half-even, as money is everywhere (888.705 → 888.70).
                expect.objectContaining({
                  quantity: held.toFixed(),
                  total_cost_basis: basis.toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN).toFixed(2),
                }),
              ],
        );
        if (ctx.app) {
          expect(await ctx.app.get(LedgerAudit).check(tenant.tenantId)).toEqual(NO_LEDGER_DISCREPANCIES);
        }
      }),
      {
        numRuns: Number(process.env.PROPERTY_RUNS ?? 12),
        // Always tried: a basis of 888.705 after partial sells, a half-way case of the rounding.
        examples: [
          [
            [
              { buy: true, quantity: 34, cents: 2619 },
              { buy: false, quantity: 8, cents: 500 },
              { buy: true, quantity: 2, cents: 12017 },
              { buy: false, quantity: 1, cents: 500 },
            ],
          ],
        ],
      },
    );
  }, 240_000);
});
