import Decimal from 'decimal.js';
import { LedgerAudit } from 'src/modules/ledger/ledger-audit.service';
import { itLocal, useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { adminToken } from '../support/remote';
import { investorKey } from '../investors/fixtures';
import { freezeClock, MONDAY_OPEN } from '../trading/support/trading';

import { balancesByCurrency, eventWebhook, expectedConversion, nairaInvestor, setFxRate } from './support/fx';
import { NO_LEDGER_DISCREPANCIES } from '../support/ledger-audit';

/**
 * FX quotes and conversions through the API: every amount checked against the model's own
 * computation (test/fx/support/fx.ts, expectedConversion), balances after each step, the refusals
 * with their codes and params, the event at a receiver, idempotency and concurrency on one balance.
 */
describe('FX quotes and conversions', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  beforeAll(() => freezeClock(ctx, tenant.test, MONDAY_OPEN));
  beforeAll(() => setFxRate(ctx, tenant.test, 'USD', 'NGN', '1500'));

  it('quotes both ways at the set rate with the default 100 bps spread, for 30 seconds of the clock', async () => {
    const sell = await client().post('/v1/fx/quotes', {
      from_currency: 'NGN',
      to_currency: 'USD',
      amount: '150000.00',
    });
    expect(sell.status).toBe(201);
    const model = expectedConversion({
      from: 'NGN',
      to: 'USD',
      mid: '0.00066667',
      spreadBps: 100,
      amount: '150000',
    });
    expect(sell.body).toEqual({
      id: expect.stringMatching(/^fxq_/),
      object: 'fx_quote',
      created: Date.parse(MONDAY_OPEN) / 1000,
      livemode: false,
      from_currency: 'NGN',
      to_currency: 'USD',
      from_amount: model.from_amount,
      to_amount: model.to_amount,
      rate: model.rate,
      mid_rate: model.mid_rate,
      spread_bps: 100,
      expires_at: new Date(Date.parse(MONDAY_OPEN) + 30_000).toISOString(),
    });
    const buy = await client().post('/v1/fx/quotes', {
      from_currency: 'USD',
      to_currency: 'NGN',
      to_amount: '100000.00',
    });
    const buyModel = expectedConversion({
      from: 'USD',
      to: 'NGN',
      mid: '1500',
      spreadBps: 100,
      toAmount: '100000',
    });
    expect(buy.body).toMatchObject({
      from_amount: buyModel.from_amount,
      to_amount: '100000.00',
      rate: buyModel.rate,
      mid_rate: '1500.00000000',
    });
    // 100000 / 1485 = 67.340..., rounded up to the cent.
    expect(buyModel.from_amount).toBe('67.35');
  });

  it('books a quote once: balances move by its amounts, the record and the event match it', async () => {
    const hook = await eventWebhook(ctx, tenant.test, ['conversion.*']);
    const { investor } = await nairaInvestor(ctx, tenant.test, '500000.00');
    const quote = (
      await client().post('/v1/fx/quotes', { from_currency: 'NGN', to_currency: 'USD', amount: '150000.00' })
    ).body;
    const path = `/v1/wallet/accounts/${investor.account_id}/conversions`;
    const res = await client().post(path, { quote_id: quote.id }, `cnv-${quote.id}`);
    expect(res.status).toBe(201);
    const record = {
      conversion_id: expect.stringMatching(/^cnv_/),
      account_id: investor.account_id,
      from_currency: 'NGN',
      to_currency: 'USD',
      from_amount: quote.from_amount,
      to_amount: quote.to_amount,
      rate: quote.rate,
      mid_rate: quote.mid_rate,
      spread_bps: 100,
      status: 'executed',
      quote_id: quote.id,
      created_at: MONDAY_OPEN.replace('Z', '.000Z'),
    };
    expect(res.body).toEqual(record);
    const replay = await client().post(path, { quote_id: quote.id }, `cnv-${quote.id}`);
    expect([replay.status, replay.headers['idempotent-replayed'], replay.body]).toEqual([
      201,
      'true',
      res.body,
    ]);

    const balances = await balancesByCurrency(ctx, tenant.test, investor.account_id);
    expect(balances.NGN).toMatchObject({ cash: '350000.00', available: '350000.00' });
    expect(balances.USD).toMatchObject({ cash: quote.to_amount, available: quote.to_amount });

    const again = await client().post(path, { quote_id: quote.id });
    expectSvcError(again, 'SVC-422-007', { param: 'quote_id' });
    const list = await client().get(path);
    expect(list.body).toEqual([res.body]);
    expect((await client().get(`${path}/${res.body.conversion_id}`)).body).toEqual(res.body);

    const event = await hook.waitFor(
      'conversion.completed',
      (d) => d.conversion_id === res.body.conversion_id,
    );
    expect(event.data).toEqual({ ...res.body, investor_id: investor.id });
    await hook.stop();
  });

  it('refuses an expired quote, a used one, and bad input, naming the field', async () => {
    const { investor } = await nairaInvestor(ctx, tenant.test, '10000.00');
    const path = `/v1/wallet/accounts/${investor.account_id}/conversions`;
    const quote = (
      await client().post('/v1/fx/quotes', { from_currency: 'NGN', to_currency: 'USD', amount: '1500.00' })
    ).body;
    await client().post('/v1/test_helpers/clock', { advance_seconds: 31 });
    expectSvcError(await client().post(path, { quote_id: quote.id }), 'SVC-422-007', { param: 'quote_id' });
    const quotes = (body: object) => client().post('/v1/fx/quotes', body);
    expectSvcError(
      await quotes({ from_currency: 'USD', to_currency: 'USD', amount: '1.00' }),
      'SVC-400-001',
      {
        param: 'to_currency',
      },
    );
    expectSvcError(
      await quotes({ from_currency: 'EUR', to_currency: 'USD', amount: '1.00' }),
      'SVC-400-001',
      {
        param: 'from_currency',
      },
    );
    expectSvcError(
      await quotes({ from_currency: 'NGN', to_currency: 'USD', amount: '1.00', to_amount: '1.00' }),
      'SVC-400-001',
      { param: 'to_amount' },
    );
    expectSvcError(await quotes({ from_currency: 'NGN', to_currency: 'USD' }), 'SVC-400-001', {
      param: 'to_amount',
    });
    expectSvcError(
      await quotes({ from_currency: 'NGN', to_currency: 'USD', amount: '1.001' }),
      'SVC-400-001',
      {
        param: 'amount',
      },
    );
    expectSvcError(await client().post(path, { quote_id: quote.id, amount: '5.00' }), 'SVC-400-001', {
      param: 'amount',
    });
    expectSvcError(
      await client().post(path, { from_currency: 'NGN', to_currency: 'USD', amount: '10000.01' }),
      'SVC-422-002',
      { param: 'amount' },
    );
    expectSvcError(
      await client().post(path, { from_currency: 'USD', to_currency: 'NGN', to_amount: '1500.00' }),
      'SVC-422-002',
      { param: 'amount' },
    );
    const balances = await balancesByCurrency(ctx, tenant.test, investor.account_id);
    expect([balances.NGN.cash, balances.USD.cash]).toEqual(['10000.00', '0.00']);
  });

  it('converts at the current rate given to_amount, and another investor\u2019s key sees 404', async () => {
    const { investor } = await nairaInvestor(ctx, tenant.test, '200000.00');
    const path = `/v1/wallet/accounts/${investor.account_id}/conversions`;
    const res = await client().post(path, { from_currency: 'NGN', to_currency: 'USD', to_amount: '100.00' });
    const model = expectedConversion({
      from: 'NGN',
      to: 'USD',
      mid: '0.00066667',
      spreadBps: 100,
      toAmount: '100',
    });
    expect(res.body).toMatchObject({ from_amount: model.from_amount, to_amount: '100.00', quote_id: null });
    const balances = await balancesByCurrency(ctx, tenant.test, investor.account_id);
    expect(balances.NGN.cash).toBe(new Decimal('200000').minus(model.from_amount).toFixed(2));
    expect(balances.USD.cash).toBe('100.00');
    const other = await nairaInvestor(ctx, tenant.test, '1.00');
    const otherKey = await investorKey(ctx, tenant.test, other.investor.id);
    expectSvcError(await ctx.as(otherKey).get(path), 'SVC-404-001');
    expectSvcError(
      await ctx.as(otherKey).post(path, { from_currency: 'NGN', to_currency: 'USD', amount: '1.00' }),
      'SVC-404-001',
    );
    expectSvcError(
      await ctx.as(otherKey).post('/v1/test_helpers/fx-rates', {
        from_currency: 'USD',
        to_currency: 'NGN',
        rate: '1.0',
      }),
      'SVC-403-001',
    );
    expectSvcError(
      await ctx.as(tenant.live).post('/v1/test_helpers/fx-rates', {
        from_currency: 'USD',
        to_currency: 'NGN',
        rate: '1.0',
      }),
      'SVC-404-001',
    );
  });

  it('50 concurrent conversions drawing on one balance never overdraw it', async () => {
    const { investor } = await nairaInvestor(ctx, tenant.test, '100000.00');
    const path = `/v1/wallet/accounts/${investor.account_id}/conversions`;
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        client().post(path, { from_currency: 'NGN', to_currency: 'USD', amount: '3000.00' }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    // 100,000 naira pays for 33 conversions of 3,000; the others find too little.
    expect(statuses.filter((s) => s === 201)).toHaveLength(33);
    expect(statuses.filter((s) => s === 422)).toHaveLength(17);
    const perConversion = expectedConversion({
      from: 'NGN',
      to: 'USD',
      mid: '0.00066667',
      spreadBps: 100,
      amount: '3000',
    });
    const balances = await balancesByCurrency(ctx, tenant.test, investor.account_id);
    expect(balances.NGN.cash).toBe('1000.00');
    expect(balances.USD.cash).toBe(new Decimal(perConversion.to_amount).times(33).toFixed(2));
  });

  it('uses the tenant\u2019s fx_spread_bps set by the sandbox admin API', async () => {
    const other = await ctx.createTenant();
    const patched = await ctx
      .http()
      .patch(`/v1/sandbox/tenants/${other.tenantId}/fx-settings`)
      .set('Authorization', `Bearer ${adminToken()}`)
      .send({ fx_spread_bps: 250 });
    expect(patched.body).toEqual({ tenant_id: other.tenantId, fx_spread_bps: 250 });
    await setFxRate(ctx, other.test, 'KES', 'USD', '0.0077');
    const quote = await ctx.as(other.test).post('/v1/fx/quotes', {
      from_currency: 'KES',
      to_currency: 'USD',
      amount: '12345.67',
    });
    const model = expectedConversion({
      from: 'KES',
      to: 'USD',
      mid: '0.0077',
      spreadBps: 250,
      amount: '12345.67',
    });
    expect(quote.body).toMatchObject({ spread_bps: 250, rate: model.rate, to_amount: model.to_amount });
    // The reverse pair is the inverse, 8 decimals half-even.
    const back = await ctx.as(other.test).post('/v1/fx/quotes', {
      from_currency: 'USD',
      to_currency: 'KES',
      amount: '1.00',
    });
    expect(back.body.mid_rate).toBe(new Decimal(1).div('0.0077').toDecimalPlaces(8).toFixed(8));
    expectSvcError(
      await ctx
        .http()
        .patch(`/v1/sandbox/tenants/${other.tenantId}/fx-settings`)
        .set('Authorization', `Bearer ${adminToken()}`)
        .send({ fx_spread_bps: 5001 }),
      'SVC-400-001',
      { param: 'fx_spread_bps' },
    );
  });

  it('walks the simulated mid rate on the clock: fixed within an hour, near the reference, moving over days', async () => {
    const other = await ctx.createTenant();
    await freezeClock(ctx, other.test, MONDAY_OPEN);
    const mid = async () =>
      (
        await ctx.as(other.test).post('/v1/fx/quotes', {
          from_currency: 'USD',
          to_currency: 'NGN',
          amount: '1.00',
        })
      ).body.mid_rate as string;
    const first = await mid();
    expect(await mid()).toBe(first);
    expect(Number(first)).toBeGreaterThan(1550 * 0.7);
    expect(Number(first)).toBeLessThan(1550 * 1.3);
    const seen = new Set([first]);
    for (let day = 0; day < 3; day++) {
      await ctx.as(other.test).post('/v1/test_helpers/clock', { advance_seconds: 86_400 });
      seen.add(await mid());
    }
    expect(seen.size).toBeGreaterThan(1);
    // The test helper's rate wins until reset with null.
    await setFxRate(ctx, other.test, 'USD', 'NGN', '1600');
    expect(await mid()).toBe('1600.00000000');
    await setFxRate(ctx, other.test, 'NGN', 'USD', null);
    expect(seen.has(await mid())).toBe(true);
  });

  itLocal(
    'posts one balanced journal per conversion with the spread as the tenant\u2019s revenue',
    async () => {
      const scoped = await ctx.createTenant();
      await freezeClock(ctx, scoped.test, MONDAY_OPEN);
      await setFxRate(ctx, scoped.test, 'USD', 'NGN', '1500');
      const { investor } = await nairaInvestor(ctx, scoped.test, '300000.00');
      const path = `/v1/wallet/accounts/${investor.account_id}/conversions`;
      const amounts = ['150000.00', '99999.99'];
      let spread = new Decimal(0);
      for (const amount of amounts) {
        const res = await ctx.as(scoped.test).post(path, {
          from_currency: 'NGN',
          to_currency: 'USD',
          amount,
        });
        expect(res.status).toBe(201);
        spread = spread.plus(
          expectedConversion({ from: 'NGN', to: 'USD', mid: '0.00066667', spreadBps: 100, amount }).spread,
        );
      }
      const rows: Array<{ kind: string; currency: string; net: string }> = await ctx.dataSource.query(
        `SELECT a.kind, a.currency,
              trim_scale(sum(CASE WHEN e.direction = 'credit' THEN e.amount ELSE -e.amount END))::text AS net
         FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.ledger_account_id
        WHERE a.tenant_id = $1 AND a.kind IN ('fx_spread_revenue', 'fx_clearing')
        GROUP BY a.kind, a.currency ORDER BY a.kind, a.currency`,
        [scoped.tenantId],
      );
      const journals: Array<{ n: string }> = await ctx.dataSource.query(
        `SELECT count(*)::text AS n FROM ledger_journals WHERE tenant_id = $1 AND kind = 'fx.conversion'`,
        [scoped.tenantId],
      );
      expect(journals[0].n).toBe('2');
      const revenue = rows.find((r) => r.kind === 'fx_spread_revenue');
      expect(new Decimal(revenue!.net).toFixed(2)).toBe(spread.toFixed(2));
      expect(await ctx.app!.get(LedgerAudit).check(scoped.tenantId)).toEqual(NO_LEDGER_DISCREPANCIES);
    },
  );

  const client = () => ctx.as(tenant.test);
});
