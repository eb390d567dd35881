import Decimal from 'decimal.js';
import { LedgerAudit } from 'src/modules/ledger/ledger-audit.service';
import { allActivities, netAmountsAndCash } from '../activities/support';
import { itLocal, useTenant, useTestContext } from '../support/app';
import { freezeClock, MONDAY_OPEN, setPrice } from '../trading/support/trading';

import { balancesByCurrency, expectedConversion, nairaInvestor, setFxRate } from './support/fx';
import { NO_LEDGER_DISCREPANCIES } from '../support/ledger-audit';

/**
 * The partner's whole story in naira: a deposit in NGN, converted to dollars at a quote, a US share
 * bought and sold, the dollars converted back. Every balance is checked against the model's own
 * figures after each step; the spread revenue and the ledger (itLocal) at the end.
 */
describe('Naira to a US share and back', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);

  const model = { NGN: new Decimal(0), USD: new Decimal(0) };
  const spread = { NGN: new Decimal(0), USD: new Decimal(0) };
  let accountId: string;

  it('deposits naira, converts at a quote, buys and sells a US share, converts back', async () => {
    const client = ctx.as(tenant.test);
    await freezeClock(ctx, tenant.test, MONDAY_OPEN);
    await setFxRate(ctx, tenant.test, 'USD', 'NGN', '1500');
    const { investor } = await nairaInvestor(ctx, tenant.test, '1000000.00');
    accountId = investor.account_id;
    model.NGN = new Decimal('1000000.00');
    await expectBalances();

    const quote = await client.post('/v1/fx/quotes', {
      from_currency: 'NGN',
      to_currency: 'USD',
      to_amount: '500.00',
    });
    const toUsd = expectedConversion({
      from: 'NGN',
      to: 'USD',
      mid: '0.00066667',
      spreadBps: 100,
      toAmount: '500',
    });
    expect(quote.body).toMatchObject({
      from_amount: toUsd.from_amount,
      to_amount: '500.00',
      rate: toUsd.rate,
    });
    const converted = await client.post(`/v1/wallet/accounts/${accountId}/conversions`, {
      quote_id: quote.body.id,
    });
    expect(converted.status).toBe(201);
    model.NGN = model.NGN.minus(toUsd.from_amount);
    model.USD = model.USD.plus('500.00');
    spread.USD = spread.USD.plus(toUsd.spread);
    await expectBalances();

    const buyQuote = await setPrice(ctx, tenant.test, 'AAPL', '200.00');
    const buy = await client.post(`/v1/investors/${investor.id}/orders`, {
      symbol: 'AAPL',
      side: 'buy',
      type: 'market',
      time_in_force: 'day',
      quantity: '2',
    });
    expect(buy.body.status).toBe('filled');
    model.USD = model.USD.minus(new Decimal(buyQuote.ask).times(2));
    await expectBalances();

    const sellQuote = await setPrice(ctx, tenant.test, 'AAPL', '210.00');
    const sell = await client.post(`/v1/investors/${investor.id}/orders`, {
      symbol: 'AAPL',
      side: 'sell',
      type: 'market',
      time_in_force: 'day',
      quantity: '2',
    });
    expect(sell.body.status).toBe('filled');
    model.USD = model.USD.plus(new Decimal(sellQuote.bid).times(2));
    await expectBalances();

    const back = await client.post(`/v1/wallet/accounts/${accountId}/conversions`, {
      from_currency: 'USD',
      to_currency: 'NGN',
      amount: model.USD.toFixed(2),
    });
    const toNgn = expectedConversion({
      from: 'USD',
      to: 'NGN',
      mid: '1500',
      spreadBps: 100,
      amount: model.USD.toFixed(2),
    });
    expect(back.body).toMatchObject({
      from_amount: toNgn.from_amount,
      to_amount: toNgn.to_amount,
      rate: toNgn.rate,
    });
    model.NGN = model.NGN.plus(toNgn.to_amount);
    model.USD = new Decimal(0);
    spread.NGN = spread.NGN.plus(toNgn.spread);
    await expectBalances();
    expect((await client.get(`/v1/wallet/accounts/${accountId}/conversions`)).body).toHaveLength(2);

    // The feed: each conversion is an FXC on the wallet it sold from and one on the wallet it bought into.
    const fxc = await allActivities(ctx, tenant.test, accountId, '&activity_types=FXC');
    expect(
      fxc.map((a) => ({
        status: a.status,
        conversion_id: a.conversion_id,
        currency: a.currency,
        net_amount: new Decimal(a.net_amount).toFixed(2),
        price: a.price === null ? null : new Decimal(a.price).toFixed(),
        symbol: a.symbol,
        qty: a.qty,
      })),
    ).toEqual(
      [
        {
          currency: 'NGN',
          net_amount: new Decimal(toUsd.from_amount).neg().toFixed(2),
          rate: toUsd.rate,
          id: converted,
        },
        { currency: 'USD', net_amount: '500.00', rate: toUsd.rate, id: converted },
        {
          currency: 'USD',
          net_amount: new Decimal(toNgn.from_amount).neg().toFixed(2),
          rate: toNgn.rate,
          id: back,
        },
        { currency: 'NGN', net_amount: new Decimal(toNgn.to_amount).toFixed(2), rate: toNgn.rate, id: back },
      ].map(({ currency, net_amount, rate, id }) => ({
        status: 'executed',
        conversion_id: id.body.conversion_id,
        currency,
        net_amount,
        price: new Decimal(rate).toFixed(),
        symbol: null,
        qty: null,
      })),
    );
    // Deposit, conversions and fills: per currency the feed sums to the settled cash (USD back to 0).
    const sums = await netAmountsAndCash(ctx, tenant.test, accountId);
    expect(sums.activities).toEqual(sums.cash);
    expect(sums.cash).toEqual({ NGN: model.NGN.toFixed(2), USD: '0.00' });
  });

  itLocal('books the spread as the tenant\u2019s revenue and keeps every currency balanced', async () => {
    const rows: Array<{ currency: string; revenue: string }> = await ctx.dataSource.query(
      `SELECT a.currency, trim_scale(sum(e.amount))::text AS revenue
         FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.ledger_account_id
        WHERE a.tenant_id = $1 AND a.kind = 'fx_spread_revenue' AND e.direction = 'credit'
        GROUP BY a.currency ORDER BY a.currency`,
      [tenant.tenantId],
    );
    expect(Object.fromEntries(rows.map((r) => [r.currency, new Decimal(r.revenue).toFixed(2)]))).toEqual({
      NGN: spread.NGN.toFixed(2),
      USD: spread.USD.toFixed(2),
    });
    const sums: Array<{ currency: string; net: string }> = await ctx.dataSource.query(
      `SELECT currency, sum(CASE WHEN direction = 'debit' THEN amount ELSE -amount END)::text AS net
         FROM ledger_entries WHERE tenant_id = $1 GROUP BY currency`,
      [tenant.tenantId],
    );
    sums.forEach((s) => expect([s.currency, new Decimal(s.net).toFixed()]).toEqual([s.currency, '0']));
    expect(await ctx.app!.get(LedgerAudit).check(tenant.tenantId)).toEqual(NO_LEDGER_DISCREPANCIES);
  });

  const expectBalances = async () => {
    const balances = await balancesByCurrency(ctx, tenant.test, accountId);
    expect({ NGN: balances.NGN.cash, USD: balances.USD.cash }).toEqual({
      NGN: model.NGN.toFixed(2),
      USD: model.USD.toFixed(2),
    });
    expect({ NGN: balances.NGN.available, USD: balances.USD.available }).toEqual({
      NGN: model.NGN.toFixed(2),
      USD: model.USD.toFixed(2),
    });
  };
});
